import JSON

/// Collects the fields of one record that are set aside while the record is decoded, with the
/// JSON path of each: decoders enter and leave objects and array elements, and a field that
/// cannot be used is skipped and noted here instead of failing the whole record.
///
/// Only a value's *content* can be set aside; JSON that is not JSON (truncated, malformed,
/// not UTF-8) still fails the record, because nothing after the damage can be read.
struct DamageCollector {
  /// The fields set aside so far, in reading order.
  private(set) var fields: [SetAsideField] = []
  /// One step of a path: a member, or an array element. Names are static text, so entering
  /// and leaving (once per transaction of every response) costs no reference counting.
  private enum Component {
    case member(StaticString)
    case element(Int)
  }

  /// The path of the object being read, outermost first.
  private var path: [Component]
  /// Whether the most recent ``scalar(_:from:in:_:)`` or ``identifier(_:from:)`` call set its
  /// value aside.
  private(set) var lastWasSetAside = false

  /// Creates a collector.
  ///
  /// - Parameter root: the path the record's fields live under (`response` for the response
  ///   of an NDJSON record), or none.
  init(root: StaticString? = nil) {
    self.path = root.map { [.member($0)] } ?? []
  }

  /// Goes into a member (`receipt`).
  mutating func enter(_ member: StaticString) { path.append(.member(member)) }

  /// Goes into an array element.
  mutating func enter(element index: Int) { path.append(.element(index)) }

  /// Comes back out of it.
  mutating func leave() { path.removeLast() }

  /// The dotted path of a field of the current object: `receipt.in_app[3].expires_date_ms`.
  func dottedPath(_ field: String?) -> String {
    var text = ""
    func add(_ name: String) { text += text.isEmpty ? name : "." + name }
    for component in path {
      switch component {
      case .element(let index): text += "[\(index)]"
      case .member(let name): add(name.description)
      }
    }
    if let field { add(field) }
    return text
  }

  /// Adds a field another collector set aside (a nested document's).
  ///
  /// - Parameter field: the set-aside field, its path already complete.
  mutating func append(_ field: SetAsideField) { fields.append(field) }

  /// Notes a field as set aside.
  ///
  /// - Parameters:
  ///   - field: the member's name, or `nil` for the current element itself.
  ///   - reason: why.
  ///   - detail: the sentence, without the path.
  ///   - value: the value's text as read, for the excerpt.
  ///   - offset: where the value starts in the record.
  mutating func setAside(
    _ field: String?, _ reason: QuarantineReason, _ detail: String, value: some Collection<UInt8>,
    at offset: Int?
  ) {
    fields.append(
      SetAsideField(
        path: dottedPath(field), reason: reason, detail: detail,
        excerpt: Self.excerpt(of: value), byteOffset: offset))
  }

  /// A value's excerpt: sanitised, and redacted whole when it looks like receipt data (a long
  /// run of base64 where a response or a field belonged), which must never be copied.
  static func excerpt(of value: some Collection<UInt8>) -> String {
    var bytes = Array(value)
    if bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\""), bytes.count >= 2 {
      bytes = Array(bytes.dropFirst().dropLast())
    }
    let isBase64 = bytes.allSatisfy {
      ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=")
        || $0 == UInt8(ascii: "\\")
    }
    if bytes.count >= 64 && isBase64 {
      return "<redacted: \(bytes.count) characters of base64, possibly receipt data>"
    }
    return ExcerptSanitizer.excerpt(of: value, limit: 80)
  }

  // The readers below take the field's name as static text: every field of every transaction
  // goes through them, and the name is spelled out only when a value is set aside.

  /// Reads a scalar as text (`readLenientString`), setting aside a value of the wrong kind.
  mutating func string(
    _ field: StaticString, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
  ) throws(JSONError) -> String? {
    try scalar(field, from: &reader, in: bytes) {
      (reader: inout JSONReader) throws(JSONError) -> String? in try reader.readLenientString()
    }
  }

  /// Reads a scalar as text through an interner, setting aside a value of the wrong kind.
  mutating func string(
    _ field: StaticString, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    interner: inout StringInterner
  ) throws(JSONError) -> String? {
    try scalar(field, from: &reader, in: bytes) {
      (reader: inout JSONReader) throws(JSONError) -> String? in
      try interner.readLenientString(&reader)
    }
  }

  /// Reads a scalar as a 64-bit integer (`readLenientInt64`), setting aside a value it refuses.
  mutating func integer(
    _ field: StaticString, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
  ) throws(JSONError) -> Int64? {
    try scalar(field, from: &reader, in: bytes) {
      (reader: inout JSONReader) throws(JSONError) -> Int64? in try reader.readLenientInt64()
    }
  }

  /// Reads a scalar as a boolean (`readLenientBool`), setting aside a value it refuses.
  mutating func flag(
    _ field: StaticString, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
  ) throws(JSONError) -> Bool? {
    try scalar(field, from: &reader, in: bytes) {
      (reader: inout JSONReader) throws(JSONError) -> Bool? in try reader.readLenientBool()
    }
  }

  /// Reads a scalar with `read`; a value `read` refuses for its type or range is skipped and
  /// set aside (as masked when it is a mask such as `*****`), and `nil` is returned.
  ///
  /// - Parameters:
  ///   - field: the member's name.
  ///   - reader: a reader positioned before the value.
  ///   - bytes: the record, for the excerpt.
  ///   - read: how the value is read.
  /// - Returns: the value, or `nil` when it is `null` or was set aside.
  /// - Throws: `JSONError` only for JSON that cannot be read at all.
  mutating func scalar<Value>(
    _ field: StaticString, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    _ read: (inout JSONReader) throws(JSONError) -> Value?
  ) throws(JSONError) -> Value? {
    lastWasSetAside = false
    var probe = reader
    do {
      let value = try read(&probe)
      reader = probe
      return value
    } catch {
      switch error.kind {
      case .typeMismatch, .numberOutOfRange:
        let range = try reader.skipValue()
        wrongValue(field.description, range: range, in: bytes, reason: error.reason)
        return nil
      default:
        throw error
      }
    }
  }

  /// Skips a value of the wrong kind (an array where an object belongs, a string where
  /// transactions belong) and sets it aside.
  ///
  /// - Parameters:
  ///   - field: the member's name, or `nil` for the current array element.
  ///   - reader: a reader positioned before the value.
  ///   - bytes: the record.
  ///   - expected: what belongs there.
  /// - Throws: `JSONError` only for JSON that cannot be read at all.
  mutating func skipWrongKind(
    _ field: StaticString?, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer,
    expected: String
  ) throws(JSONError) {
    let found = try reader.peekKind()
    let range = try reader.skipValue()
    wrongValue(
      field?.description, range: range, in: bytes, reason: "expected \(expected), found \(found)")
  }

  /// Reads a transaction id (`transaction_id`, `original_transaction_id`) or app transaction
  /// id: text that cannot be an App Store id — masked, rewritten by a spreadsheet, not digits —
  /// is set aside, never sent to Apple.
  ///
  /// - Parameters:
  ///   - field: the member's name.
  ///   - reader: a reader positioned before the value.
  ///   - bytes: the record.
  /// - Returns: the id, or `nil` when absent or set aside.
  /// - Throws: `JSONError` only for JSON that cannot be read at all.
  mutating func identifier(
    _ field: StaticString, from reader: inout JSONReader, in bytes: UnsafeRawBufferPointer
  ) throws(JSONError) -> String? {
    lastWasSetAside = false
    let offset = reader.offset
    let text: String
    if try reader.peekKind() == .string {
      // The common case: the id's digits checked on its bytes, as it is read.
      let (read, isDigits) = try reader.withStringBytes { bytes in
        (
          String(decoding: bytes, as: UTF8.self),
          (1...TransactionIdentifierCheck.maximumDigits).contains(bytes.count)
            && bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        )
      }
      if isDigits { return read }
      text = read
    } else {
      guard let read = try string(field, from: &reader, in: bytes) else { return nil }
      text = read
    }
    // An empty id is an absent one, as Apple's own code reads it.
    if text.isEmpty { return nil }
    let name = field.description
    guard let problem = Self.problem(withIdentifier: text, field: name) else { return text }
    lastWasSetAside = true
    setAside(name, problem.reason, problem.detail, value: Array(text.utf8), at: offset)
    return nil
  }

  /// Why `text` cannot be an App Store transaction (or app transaction) id, or `nil`.
  ///
  /// - Parameters:
  ///   - text: the value.
  ///   - field: its name, for the sentence.
  /// - Returns: the reason and the sentence.
  static func problem(withIdentifier text: String, field: String)
    -> (reason: QuarantineReason, detail: String)?
  {
    if MaskedValue.isMask(text) {
      return (
        .masked,
        "\(field) is masked ('\(text.prefix(40))'); the archive removed the id, so it cannot be looked up"
      )
    }
    guard let problem = TransactionIdentifierCheck.problem(with: text, field: field) else {
      return nil
    }
    return (.malformedTransactionId, problem)
  }

  private mutating func wrongValue(
    _ field: String?, range: Range<Int>, in bytes: UnsafeRawBufferPointer, reason: String
  ) {
    lastWasSetAside = true
    let value = UnsafeRawBufferPointer(rebasing: bytes[range])
    var string = JSONReader(value)
    if case .string? = try? string.peekKind(), let text = try? string.readString(),
      MaskedValue.isMask(text)
    {
      setAside(
        field, .masked, "the value is masked ('\(text.prefix(40))')", value: value,
        at: range.lowerBound)
      return
    }
    setAside(field, .wrongType, reason, value: value, at: range.lowerBound)
  }
}
