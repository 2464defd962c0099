/// Writes JSON into a byte buffer, in the order the caller gives — so reports and golden files
/// have stable key orders — compact for NDJSON or indented for people.
///
/// ```swift
/// var writer = JSONWriter(style: .pretty)
/// writer.beginObject()
/// writer.field("schema_version", 1)
/// writer.key("categories")
/// writer.beginArray()
/// writer.value("match")
/// writer.endArray()
/// writer.endObject()
/// let bytes = writer.bytes
/// ```
public struct JSONWriter: Sendable {
  /// Layout of the output.
  public enum Style: Sendable {
    /// No whitespace at all: one value per line in NDJSON.
    case compact
    /// Two-space indentation, one member per line, `"key": value`.
    case pretty
  }

  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []
  private let style: Style
  /// One entry per open container: whether it already holds a member.
  private var hasMembers: [Bool] = []
  private var afterKey = false

  /// Creates an empty writer.
  ///
  /// - Parameter style: compact (default) or pretty.
  public init(style: Style = .compact) {
    self.style = style
  }

  /// The output as a string.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  // MARK: - Containers

  /// Opens an object.
  public mutating func beginObject() {
    prepareForValue()
    bytes.append(UInt8(ascii: "{"))
    hasMembers.append(false)
  }

  /// Closes the innermost object.
  public mutating func endObject() { close(UInt8(ascii: "}")) }

  /// Opens an array.
  public mutating func beginArray() {
    prepareForValue()
    bytes.append(UInt8(ascii: "["))
    hasMembers.append(false)
  }

  /// Closes the innermost array.
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  /// Writes an object key; the next value written is its value.
  ///
  /// - Parameter name: the key.
  public mutating func key(_ name: String) {
    separateMember()
    appendQuoted(name)
    bytes.append(UInt8(ascii: ":"))
    if style == .pretty { bytes.append(0x20) }
    afterKey = true
  }

  // MARK: - Values

  /// Writes a string value.
  ///
  /// - Parameter text: the string; escaped as JSON requires.
  public mutating func value(_ text: String) {
    prepareForValue()
    appendQuoted(text)
  }

  /// Writes an integer value.
  ///
  /// - Parameter number: the integer.
  public mutating func value(_ number: Int64) {
    prepareForValue()
    bytes.append(contentsOf: String(number).utf8)
  }

  /// Writes an integer value.
  ///
  /// - Parameter number: the integer.
  public mutating func value(_ number: Int) { value(Int64(number)) }

  /// Writes a floating-point value; non-finite values become `null`, which JSON requires.
  ///
  /// - Parameter number: the number.
  public mutating func value(_ number: Double) {
    prepareForValue()
    if number.isFinite {
      if number == number.rounded(), abs(number) < 1e15 {
        bytes.append(contentsOf: String(Int64(number)).utf8)
      } else {
        bytes.append(contentsOf: "\(number)".utf8)
      }
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
  }

  /// Writes `true` or `false`.
  ///
  /// - Parameter flag: the boolean.
  public mutating func value(_ flag: Bool) {
    prepareForValue()
    bytes.append(contentsOf: (flag ? "true" : "false").utf8)
  }

  /// Writes `null`.
  public mutating func null() {
    prepareForValue()
    bytes.append(contentsOf: "null".utf8)
  }

  /// Writes already-serialised JSON as the next value, for example a stored document.
  ///
  /// - Parameter json: valid JSON bytes; the caller guarantees validity.
  public mutating func raw(_ json: some Sequence<UInt8>) {
    prepareForValue()
    bytes.append(contentsOf: json)
  }

  // MARK: - Fields

  /// Writes `"name": text`, or `"name": null` when `text` is `nil`.
  ///
  /// - Parameters:
  ///   - name: the key.
  ///   - text: the value.
  public mutating func field(_ name: String, _ text: String?) {
    key(name)
    if let text { value(text) } else { null() }
  }

  /// Writes `"name": number`, or `"name": null` when `number` is `nil`.
  ///
  /// - Parameters:
  ///   - name: the key.
  ///   - number: the value.
  public mutating func field(_ name: String, _ number: Int64?) {
    key(name)
    if let number { value(number) } else { null() }
  }

  /// Writes `"name": number`, or `"name": null` when `number` is `nil`.
  ///
  /// - Parameters:
  ///   - name: the key.
  ///   - number: the value.
  public mutating func field(_ name: String, _ number: Int?) {
    field(name, number.map(Int64.init))
  }

  /// Writes `"name": number`, or `"name": null` when `number` is `nil`.
  ///
  /// - Parameters:
  ///   - name: the key.
  ///   - number: the value.
  public mutating func field(_ name: String, _ number: Double?) {
    key(name)
    if let number { value(number) } else { null() }
  }

  /// Writes `"name": flag`, or `"name": null` when `flag` is `nil`.
  ///
  /// - Parameters:
  ///   - name: the key.
  ///   - flag: the value.
  public mutating func field(_ name: String, _ flag: Bool?) {
    key(name)
    if let flag { value(flag) } else { null() }
  }

  // MARK: - Layout

  private mutating func prepareForValue() {
    if afterKey {
      afterKey = false
      return
    }
    separateMember()
  }

  private mutating func separateMember() {
    guard let last = hasMembers.indices.last else { return }
    if hasMembers[last] { bytes.append(UInt8(ascii: ",")) }
    hasMembers[last] = true
    newline(depth: hasMembers.count)
  }

  private mutating func close(_ bracket: UInt8) {
    let hadMembers = hasMembers.removeLast()
    if hadMembers { newline(depth: hasMembers.count) }
    bytes.append(bracket)
  }

  private mutating func newline(depth: Int) {
    guard style == .pretty else { return }
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
  }

  private mutating func appendQuoted(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      // Copy runs of bytes that need no escaping in one go; most strings are a single run.
      var runStart = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard
          byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
        else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        appendEscape(byte)
        runStart = index + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func appendEscape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
    case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
    case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
    case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
    case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
    default:
      let hex = Array("0123456789abcdef".utf8)
      bytes.append(contentsOf: [
        0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
      ])
    }
  }
}
