import Chronology
import CompactEncoding

/// A decoded verifyReceipt response in a compact binary form: what `compare` and `report` read
/// back instead of the verbatim record, which stays in the store untouched.
///
/// A stored response is JSON with every date three times over (`_ms`, GMT and Pacific text),
/// each transaction in both `receipt.in_app` and `latest_receipt_info`, and the base64 receipt
/// the old logic never reads; reading and parsing all of it again for every account on every
/// nightly run is most of what compare reads from the disk. The compact form holds exactly
/// what ``VerifyReceiptResponse`` holds — decoding it gives a value equal to decoding the
/// verbatim bytes — in about a tenth of the size.
///
/// The form is versioned by ``formatVersion``. Raise it whenever the bytes written change, and
/// also whenever ``VerifyReceiptDecoder`` starts decoding the same verbatim bytes differently:
/// stored compact copies of another version are then ignored and the verbatim bytes decoded
/// instead, so an old copy can never stand in for what the decoder now reads.
///
/// Layout: the version byte, then the response (see `write(_:)` for each part's order). Every
/// group of optional fields begins with a bit mask saying which are present; strings are
/// written in full once per response and by number after that.
public enum CompactResponse {
  /// The version of the compact form and of the decoding it captures.
  ///
  /// Version 2 (set-aside fields): the decoder no longer refuses a response for one unusable
  /// field, and marks transactions and renewals incomplete (a flag each).
  public static let formatVersion = 2

  /// The compact bytes of a response.
  ///
  /// - Parameter response: a decoded response.
  /// - Returns: its compact form, starting with ``formatVersion``.
  public static func encode(_ response: VerifyReceiptResponse) -> [UInt8] {
    var writer = CompactWriter()
    writer.byte(UInt8(formatVersion))
    writer.write(response)
    return writer.bytes
  }

  /// Reads a response back from its compact bytes.
  ///
  /// - Parameter bytes: what ``encode(_:)`` returned.
  /// - Returns: the response, equal to the one encoded.
  /// - Throws: ``CompactDecodingError`` when the bytes are damaged, trail, or are of another
  ///   version.
  public static func decode(_ bytes: [UInt8]) throws(CompactDecodingError) -> VerifyReceiptResponse
  {
    try CompactReader.readWhole(bytes, formatVersion: formatVersion, noun: "the response") {
      reader throws(CompactDecodingError) in try reader.readResponse()
    }
  }
}
