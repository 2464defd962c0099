/// Replaces the values of one member of a stored JSON document, leaving every other byte as it
/// was: how a value that must not be kept leaves a record without the rest of the record being
/// rewritten (re-serializing would change number spellings, escapes and white space that the
/// record's readers may rely on).
///
/// The member is looked for in the top-level object and in the objects that are the values of
/// its members named in `nested` — for a verifyReceipt record, `latest_receipt` at the top level
/// (a bare response) and inside `response` (a record that wraps one).
public enum JSONMemberReplacement {
  /// Where the values of `member` lie in `bytes`.
  ///
  /// - Parameters:
  ///   - member: the member's key.
  ///   - nested: the keys of the top-level members whose object values are searched as well.
  ///   - bytes: a JSON document.
  /// - Returns: the values' byte ranges, in document order; empty when the document is not an
  ///   object or holds no such member.
  /// - Throws: `JSONError` when the document is not JSON.
  public static func valueRanges(
    of member: StaticString, nestedIn nested: [StaticString], in bytes: UnsafeRawBufferPointer
  ) throws(JSONError) -> [Range<Int>] {
    var reader = JSONReader(bytes)
    guard try reader.peekKind() == .object else { return [] }
    var ranges: [Range<Int>] = []
    try reader.beginObject()
    while let key = try reader.nextKey() {
      if key == member {
        ranges.append(try reader.skipValue())
      } else if nested.contains(where: { key == $0 }), try reader.peekKind() == .object {
        try reader.beginObject()
        while let inner = try reader.nextKey() {
          if inner == member {
            ranges.append(try reader.skipValue())
          } else {
            try reader.skipValue()
          }
        }
      } else {
        try reader.skipValue()
      }
    }
    return ranges
  }

  /// `bytes` with every value of `member` (see ``valueRanges(of:nestedIn:in:)``) replaced by
  /// `replacement`, or `nil` when there is none to replace or the document is not JSON (the
  /// caller keeps it as it is).
  ///
  /// - Parameters:
  ///   - member: the member's key.
  ///   - nested: the keys of the top-level members whose object values are searched as well.
  ///   - replacement: the JSON text put in each value's place, such as `"<removed>"` with its
  ///     quotes.
  ///   - bytes: a JSON document.
  /// - Returns: the edited document, or `nil`.
  public static func replacingValues(
    of member: StaticString, nestedIn nested: [StaticString], with replacement: [UInt8],
    in bytes: UnsafeRawBufferPointer
  ) -> [UInt8]? {
    let ranges: [Range<Int>]
    do {
      ranges = try valueRanges(of: member, nestedIn: nested, in: bytes)
    } catch {
      return nil
    }
    guard !ranges.isEmpty else { return nil }
    var edited: [UInt8] = []
    edited.reserveCapacity(bytes.count)
    var copied = 0
    for range in ranges {
      edited.append(contentsOf: bytes[copied..<range.lowerBound])
      edited.append(contentsOf: replacement)
      copied = range.upperBound
    }
    edited.append(contentsOf: bytes[copied...])
    return edited
  }
}
