import CompactEncoding

/// A decoded signed transaction in a compact binary form: what `compare` and `report` read back
/// instead of the signed value, which stays in the store untouched.
///
/// A stored transaction is a JWS: a base64url JSON payload and a signature, about 1.2 KB, of
/// which compare needs only the decoded payload. Reading every account's signed values and
/// decoding their payloads again on every nightly run was most of what compare read from the
/// disk at a million accounts, and a sixth of its processor time. The compact form holds
/// exactly what ``JWSTransaction`` holds — decoding it gives a value equal to decoding the
/// signed value's payload — in about a sixth of the size.
///
/// The form is versioned by ``formatVersion``. Raise it whenever the bytes written change, and
/// also whenever ``JWSTransaction`` starts decoding the same payload differently (a new member,
/// another type): stored copies of another version are then ignored and the signed values
/// decoded instead, so an old copy can never stand in for what the decoder now reads.
///
/// Layout: the version byte, then one group of optional fields (a bit mask of the present
/// ones, then their values in the order of ``JWSTransaction``'s members), then, when present,
/// the commitment information as a second group. Open enumerations are written as their raw
/// values; strings are written in full once per transaction and by number after that.
public enum CompactTransaction {
  /// The version of the compact form and of the decoding it captures.
  public static let formatVersion = 1

  /// The compact bytes of a transaction.
  ///
  /// - Parameter transaction: a decoded transaction.
  /// - Returns: its compact form, starting with ``formatVersion``.
  public static func encode(_ transaction: JWSTransaction) -> [UInt8] {
    var writer = CompactWriter()
    writer.byte(UInt8(formatVersion))
    writer.write(transaction)
    return writer.bytes
  }

  /// Reads a transaction back from its compact bytes.
  ///
  /// - Parameter bytes: what ``encode(_:)`` returned.
  /// - Returns: the transaction, equal to the one encoded.
  /// - Throws: `CompactDecodingError` when the bytes are damaged, trail, or are of another
  ///   version.
  public static func decode(_ bytes: [UInt8]) throws(CompactDecodingError) -> JWSTransaction {
    try CompactReader.readWhole(bytes, formatVersion: formatVersion, noun: "the transaction") {
      reader throws(CompactDecodingError) in try reader.readTransaction()
    }
  }
}
