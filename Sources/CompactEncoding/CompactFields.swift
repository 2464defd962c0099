/// One group of optional fields as ``CompactWriter/group(_:)`` sees it, twice: first to learn
/// which are present (the mask written before them), then to write the present ones' values.
public struct CompactFields {
  /// Whether this pass writes values (the second) or only learns the mask (the first).
  let isWriting: Bool
  /// The bits of the present fields, learnt by the first pass.
  var mask: UInt64 = 0
  /// The bit of the next field.
  var next: UInt64 = 1
  /// The value's writer, lent to the writing pass.
  var writer = CompactWriter()

  init(isWriting: Bool) {
    self.isWriting = isWriting
  }

  /// A field that may be absent; `write` appends its value when it is present.
  public mutating func field<Value>(_ value: Value?, _ write: (inout CompactWriter, Value) -> Void)
  {
    if let value {
      if isWriting { write(&writer, value) } else { mask |= next }
    }
    next <<= 1
  }

  /// A flag with no value: its bit set means true.
  public mutating func flag(_ isSet: Bool) {
    if isSet, !isWriting { mask |= next }
    next <<= 1
  }
}
