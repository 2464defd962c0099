/// A response's status line and header fields, as read off the wire.
struct ResponseHead {
  /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
  var minorVersion: Int
  /// The status code.
  var status: Int
  /// Header fields in order, names lowercased.
  var headers: [(name: String, value: String)]

  /// Every value of the fields named `name` (lowercase), split at commas and trimmed.
  func tokens(_ name: String) -> [Substring] {
    headers.lazy.filter { $0.name == name }
      .flatMap { $0.value.split(separator: ",") }
      .map { $0.trimmingSpaces }
  }

  /// Parses a head from its bytes, the final empty line excluded.
  ///
  /// - Throws: ``HTTPClientError/Kind/malformedResponse`` naming the first thing wrong.
  init(parsing bytes: UnsafeRawBufferPointer, from origin: Origin) throws(HTTPClientError) {
    var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
      line.last == 13 ? line.dropLast() : line
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let statusLine = lines.first else {
      throw Self.malformed("an empty status line", origin)
    }
    // "HTTP/1.1 200 OK": version, space, three digits, then an optional reason phrase.
    let bytes = Array(statusLine)
    guard bytes.count >= 12, bytes.starts(with: Array("HTTP/1.".utf8)),
      (48...57).contains(bytes[7]), bytes[8] == 32,
      bytes[9...11].allSatisfy({ (48...57).contains($0) }),
      bytes.count == 12 || bytes[12] == 32
    else {
      throw Self.malformed(
        "a status line that is not HTTP/1.x (\(Self.printable(statusLine)))", origin)
    }
    minorVersion = Int(bytes[7] - 48)
    status = bytes[9...11].reduce(0) { $0 * 10 + Int($1 - 48) }
    headers = []
    headers.reserveCapacity(lines.count - 1)
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
        line.first != 32, line.first != 9
      else {
        throw Self.malformed("a header line without a name (\(Self.printable(line)))", origin)
      }
      let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
      let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
      headers.append((name, String(value.trimmingSpaces)))
    }
  }

  private static func malformed(_ what: String, _ origin: Origin) -> HTTPClientError {
    HTTPClientError(
      .malformedResponse, "\(origin) answered with \(what), not an HTTP/1.1 response",
      receivedAnswerBytes: true)
  }

  /// At most 60 bytes of a line, for a message.
  private static func printable(_ line: Slice<UnsafeRawBufferPointer>) -> String {
    String(decoding: line.prefix(60), as: UTF8.self).debugDescription
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (HTTP's optional white space).
  var trimmingSpaces: Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    let text = self[...]
    guard let first = text.firstIndex(where: { !isSpace($0) }),
      let last = text.lastIndex(where: { !isSpace($0) })
    else { return Substring() }
    return Substring(text[first...last])
  }
}
