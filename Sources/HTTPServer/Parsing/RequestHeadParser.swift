/// Parses a request head — the request line and the header field lines — and decides how the
/// body is framed, following RFC 9112 strictly.
///
/// Strictness is deliberate: every ambiguity this parser refuses (bare LF, whitespace before a
/// colon, obsolete line folding, conflicting `Content-Length`, `Content-Length` together with
/// `Transfer-Encoding`) is one that lets two HTTP implementations disagree about where a request
/// ends, which is how request smuggling starts.
enum RequestHeadParser {
  /// Parses a request head.
  ///
  /// - Parameter head: The bytes up to, not including, the CRLF CRLF that ends the head: lines
  ///   separated by CRLF, the request line first.
  /// - Returns: The parsed head.
  /// - Throws: A `RequestRejection` with the status to answer and the reason.
  static func parse(_ head: UnsafeBufferPointer<UInt8>) throws(RequestRejection) -> RequestHead {
    var lines = LineIterator(bytes: head)
    guard let requestLine = try lines.next() else {
      throw .malformed("the request line is missing")
    }
    let (method, targetBytes, version) = try parseRequestLine(head[requestLine])
    var headers = HTTPHeaders()
    while let line = try lines.next() {
      let field = try parseField(head[line])
      headers.add(name: field.name, value: field.value)
    }
    let target = String(decoding: targetBytes, as: UTF8.self)
    let (path, queryItems) = try parseTarget(targetBytes, quoted: target)
    let semantics = try interpretFields(headers, version: version)
    return RequestHead(
      method: method, target: target, path: path, queryItems: queryItems, version: version,
      headers: headers, framing: semantics.framing, keepAlive: semantics.keepAlive,
      expectsContinue: semantics.expectsContinue)
  }

  typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

  // MARK: - Lines

  /// Yields the byte ranges of CRLF-separated lines, refusing a CR or LF that is not part of a
  /// CRLF pair.
  struct LineIterator {
    let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var finished = false

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    mutating func next() throws(RequestRejection) -> Range<Int>? {
      guard !finished else { return nil }
      let start = position
      var index = start
      while index < bytes.count {
        switch bytes[index] {
        case ASCII.lineFeed:
          throw .malformed("a line of the request head ends in a bare LF; end every line with CRLF")
        case ASCII.carriageReturn:
          guard index + 1 < bytes.count, bytes[index + 1] == ASCII.lineFeed else {
            throw .malformed("the request head contains a CR that is not followed by LF")
          }
          position = index + 2
          return start..<index
        default:
          index += 1
        }
      }
      finished = true
      return start..<index
    }
  }

  // MARK: - Request line

  static func parseRequestLine(
    _ line: Bytes
  ) throws(RequestRejection) -> (HTTPMethod, Bytes, HTTPVersion) {
    guard let firstSpace = line.firstIndex(of: ASCII.space),
      let secondSpace = line[(firstSpace + 1)...].firstIndex(of: ASCII.space)
    else {
      throw .malformed(
        "the request line \(quote(line)) is not \"METHOD target HTTP/1.1\" with single spaces")
    }
    let methodBytes = line[..<firstSpace]
    let target = line[(firstSpace + 1)..<secondSpace]
    let versionBytes = line[(secondSpace + 1)...]
    guard !methodBytes.isEmpty, methodBytes.allSatisfy(ASCII.isTokenCharacter) else {
      throw .malformed("the request method \(quote(methodBytes)) is not a token")
    }
    guard !target.isEmpty, target.allSatisfy({ $0 > ASCII.space && $0 < ASCII.delete }) else {
      throw .malformed(
        "the request line \(quote(line)) is not \"METHOD target HTTP/1.1\" with single spaces "
          + "and a percent-encoded target")
    }
    let method = HTTPMethod(rawValue: String(decoding: methodBytes, as: UTF8.self))
    return (method, target, try parseVersion(versionBytes))
  }

  static func parseVersion(_ bytes: Bytes) throws(RequestRejection) -> HTTPVersion {
    let prefix = "HTTP/".utf8
    let digits = bytes.dropFirst(prefix.count)
    guard bytes.count == prefix.count + 3, bytes.starts(with: prefix),
      let major = ASCII.decimalDigitValue(digits[digits.startIndex]),
      digits[digits.startIndex + 1] == UInt8(ascii: "."),
      let minor = ASCII.decimalDigitValue(digits[digits.startIndex + 2])
    else {
      throw .malformed("the protocol version \(quote(bytes)) is not HTTP/1.1 or HTTP/1.0")
    }
    guard major == 1 else {
      throw .unsupportedVersion(String(decoding: bytes, as: UTF8.self))
    }
    // A later 1.x is answered as 1.1, the highest version this server implements.
    return HTTPVersion(major: 1, minor: min(minor, 1))
  }

  // MARK: - Header fields

  static func parseField(_ line: Bytes) throws(RequestRejection) -> HTTPHeaderField {
    guard let first = line.first, !ASCII.isWhitespace(first) else {
      throw .malformed(
        "a header line starts with whitespace (obsolete line folding); send each field on one line")
    }
    guard let colon = line.firstIndex(of: ASCII.colon) else {
      throw .malformed("the header line \(quote(line)) has no colon")
    }
    let nameBytes = line[..<colon]
    guard !nameBytes.isEmpty, nameBytes.allSatisfy(ASCII.isTokenCharacter) else {
      throw .malformed(
        "the header field name \(quote(nameBytes)) is not a token "
          + "(whitespace before the colon is not allowed)")
    }
    let name = String(decoding: nameBytes, as: UTF8.self)
    var valueBytes = line[(colon + 1)...]
    while let byte = valueBytes.first, ASCII.isWhitespace(byte) { valueBytes.removeFirst() }
    while let byte = valueBytes.last, ASCII.isWhitespace(byte) { valueBytes.removeLast() }
    guard valueBytes.allSatisfy(ASCII.isFieldValueCharacter) else {
      throw .malformed("the value of header field \(name) contains a control character")
    }
    guard let value = String(validating: valueBytes, as: UTF8.self) else {
      throw .malformed("the value of header field \(name) is not valid UTF-8")
    }
    return HTTPHeaderField(name: name, value: value)
  }

  // MARK: - Target

  static func parseTarget(
    _ target: Bytes, quoted: String
  ) throws(RequestRejection) -> (String, [HTTPQueryItem]) {
    var rest = target
    if rest.first != ASCII.slash {
      // Absolute form (RFC 9112 §3.2.2): servers must accept it although clients only send it to
      // proxies. The scheme and authority are dropped; the loopback server has one authority.
      let lowered = target.prefix(8).map(ASCII.lowercased)
      let schemeLength =
        lowered.starts(with: "http://".utf8)
        ? 7 : lowered.starts(with: "https://".utf8) ? 8 : nil
      guard let schemeLength else {
        throw .malformed(
          "the request target \"\(quoted)\" is neither an absolute path nor an absolute URI")
      }
      rest = rest.dropFirst(schemeLength)
      rest =
        rest[
          (rest.firstIndex { $0 == ASCII.slash || $0 == ASCII.questionMark } ?? rest.endIndex)...]
    }
    guard !rest.contains(ASCII.numberSign) else {
      throw .malformed("the request target \"\(quoted)\" contains a fragment (#); leave it out")
    }
    let questionMark = rest.firstIndex(of: ASCII.questionMark)
    let pathBytes = rest[..<(questionMark ?? rest.endIndex)]
    guard let decodedPath = PercentDecoding.decode(pathBytes) else {
      throw .malformed(
        "the path of \"\(quoted)\" has a malformed percent-escape or is not UTF-8 once decoded")
    }
    let path = decodedPath.isEmpty ? "/" : decodedPath
    guard let questionMark else { return (path, []) }
    var items: [HTTPQueryItem] = []
    for pair in rest[(questionMark + 1)...].split(
      separator: ASCII.ampersand, omittingEmptySubsequences: true)
    {
      let equals = pair.firstIndex(of: ASCII.equals)
      let nameBytes = pair[..<(equals ?? pair.endIndex)]
      let valueBytes = equals.map { pair[($0 + 1)...] } ?? pair[pair.endIndex...]
      guard let name = PercentDecoding.decode(nameBytes),
        let value = PercentDecoding.decode(valueBytes)
      else {
        throw .malformed(
          "the query of \"\(quoted)\" has a malformed percent-escape or is not UTF-8 once decoded")
      }
      items.append(HTTPQueryItem(name: name, value: value))
    }
    return (path, items)
  }

  // MARK: - Framing and connection semantics

  struct Semantics {
    var framing: BodyFraming
    var keepAlive: Bool
    var expectsContinue: Bool
  }

  static func interpretFields(
    _ headers: HTTPHeaders, version: HTTPVersion
  ) throws(RequestRejection) -> Semantics {
    var hostCount = 0
    var contentLength: Int?
    var transferCodings: [String]?
    var connectionClose = false
    var connectionKeepAlive = false
    var expectations: [String] = []
    for field in headers {
      if HTTPHeaders.namesMatch(field.name, "Host") {
        hostCount += 1
      } else if HTTPHeaders.namesMatch(field.name, "Content-Length") {
        for element in listElements(field.value) {
          let length = try parseContentLength(element)
          guard contentLength == nil || contentLength == length else {
            throw .malformed("the request has conflicting Content-Length values; send one")
          }
          contentLength = length
        }
      } else if HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") {
        transferCodings =
          (transferCodings ?? []) + listElements(field.value).map { $0.lowercased() }
      } else if HTTPHeaders.namesMatch(field.name, "Connection") {
        for option in listElements(field.value) {
          if HTTPHeaders.namesMatch(option, "close") { connectionClose = true }
          if HTTPHeaders.namesMatch(option, "keep-alive") { connectionKeepAlive = true }
        }
      } else if HTTPHeaders.namesMatch(field.name, "Expect") {
        expectations += listElements(field.value)
      }
    }

    guard hostCount <= 1 else {
      throw .malformed("the request has \(hostCount) Host header fields; send exactly one")
    }
    guard hostCount == 1 || !version.keepsConnectionsAliveByDefault else {
      throw .malformed("an HTTP/1.1 request must have a Host header field")
    }

    var framing = BodyFraming.none
    if let transferCodings {
      guard version.keepsConnectionsAliveByDefault else {
        throw .malformed("Transfer-Encoding is not allowed in an HTTP/1.0 request")
      }
      guard contentLength == nil else {
        throw .malformed(
          "the request has both Content-Length and Transfer-Encoding; send only one of them")
      }
      if let unsupported = transferCodings.first(where: { $0 != "chunked" }) {
        throw .unsupportedTransferCoding(unsupported)
      }
      guard transferCodings.count == 1 else {
        throw .malformed("Transfer-Encoding must name chunked exactly once")
      }
      framing = .chunked
    } else if let contentLength, contentLength > 0 {
      framing = .contentLength(contentLength)
    }

    var expectsContinue = false
    if version.keepsConnectionsAliveByDefault {
      // RFC 9110 §10.1.1: an HTTP/1.0 client cannot mean it, so only HTTP/1.1 expectations count.
      for expectation in expectations {
        guard HTTPHeaders.namesMatch(expectation, "100-continue") else {
          throw .unsupportedExpectation(expectation)
        }
        expectsContinue = framing != .none
      }
    }

    let keepAlive =
      !connectionClose && (version.keepsConnectionsAliveByDefault || connectionKeepAlive)
    return Semantics(framing: framing, keepAlive: keepAlive, expectsContinue: expectsContinue)
  }

  /// The non-empty, trimmed elements of a comma-separated field value.
  static func listElements(_ value: String) -> [String] {
    value.utf8.split(separator: UInt8(ascii: ",")).compactMap { element in
      guard let first = element.firstIndex(where: { !ASCII.isWhitespace($0) }),
        let last = element.lastIndex(where: { !ASCII.isWhitespace($0) })
      else { return nil }
      return String(decoding: element[first...last], as: UTF8.self)
    }
  }

  /// A decimal length; a number too large for `Int` saturates, which the body limit then refuses.
  static func parseContentLength(_ text: String) throws(RequestRejection) -> Int {
    var length = 0
    for byte in text.utf8 {
      guard let digit = ASCII.decimalDigitValue(byte) else {
        throw .malformed("the Content-Length \"\(text)\" is not a decimal number")
      }
      let (shifted, overflowShift) = length.multipliedReportingOverflow(by: 10)
      let (sum, overflowAdd) = shifted.addingReportingOverflow(digit)
      length = overflowShift || overflowAdd ? Int.max : sum
    }
    return length
  }

  // MARK: - Messages

  /// Quotes request bytes for an error message: printable ASCII as is, other bytes escaped,
  /// truncated, so a hostile request cannot put anything strange into the answer.
  static func quote(_ bytes: Bytes) -> String {
    var text = "\""
    for byte in bytes.prefix(60) {
      if byte >= ASCII.space && byte < ASCII.delete && byte != UInt8(ascii: "\"") {
        text.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return text + (bytes.count > 60 ? "…\"" : "\"")
  }
}
