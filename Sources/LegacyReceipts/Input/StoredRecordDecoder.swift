/// Reads a stored legacy record back: the verbatim bytes ingest kept, in the format they were
/// read as.
public enum StoredRecordDecoder {
  /// The response a stored record holds.
  ///
  /// - Parameters:
  ///   - bytes: the record's bytes (an NDJSON line, or a whole `.json` file).
  ///   - format: the format it was read as.
  /// - Returns: the response, or `nil` for a record without one (a raw receipt, a CSV row).
  /// - Throws: ``LegacyDecodingError`` (only if the stored bytes were altered since ingest).
  public static func response(of bytes: [UInt8], format: LegacyInputFormat) throws
    -> VerifyReceiptResponse?
  {
    guard format != .csv else { return nil }
    let decoded: NDJSONRecordDecoder.Decoded
    do {
      decoded = try bytes.withUnsafeBytes {
        try NDJSONRecordDecoder.decode($0, allowBareResponse: format == .json)
      }
    } catch {
      let detail = (error as? RecordRejection)?.detail ?? "\(error)"
      throw LegacyDecodingError(.missingField("the stored record no longer decodes: \(detail)"))
    }
    guard case .response(let response) = decoded.content else { return nil }
    // A raw receipt holds no response; its ids were stored as seeds when it was ingested.
    return response
  }
}
