import JSON

/// What the store keeps of a stored verifyReceipt response: everything but its
/// `latest_receipt`.
///
/// `latest_receipt` is the whole base64 app receipt Apple sent back — the customer's purchase
/// history, about a sixth of the bytes of a typical record — and nothing reads it: the decoder
/// notes only that it was there, and every id and date it holds is also in
/// `latest_receipt_info` and in the App Store's signed answers. Its value is replaced by
/// ``placeholder``, so the record still says a receipt came with it and every other byte stays
/// as the file wrote it; `content_sha256` stays the hash of the bytes as read, so the same file
/// ingested again is still recognised. `ingest --keep-latest-receipt` stores records whole.
public enum LatestReceiptRemoval {
  /// What stands in for the value: `"<removed>"`, quotes included.
  public static let placeholder = Array(#""<removed>""#.utf8)

  /// `bytes` without the value of `latest_receipt`, at the top level (a bare response) or in
  /// `response` (a record that wraps one); the bytes as they are when there is none or they are
  /// not JSON.
  ///
  /// - Parameter bytes: a stored record.
  /// - Returns: what the store keeps.
  public static func removing(from bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBytes { buffer in
      JSONMemberReplacement.replacingValues(
        of: "latest_receipt", nestedIn: ["response"], with: placeholder, in: buffer)
    } ?? bytes
  }
}
