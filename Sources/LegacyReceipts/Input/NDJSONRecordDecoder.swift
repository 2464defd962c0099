import Chronology
import JSON

/// Decodes the record shape shared by NDJSON lines (and accepted for `.json` files):
/// `{"account_id": "...", "response": {...}}` or `{"account_id": "...", "receipt_data": "..."}`,
/// with optional `environment` and `captured_at` (Unix ms or ISO 8601) members.
enum NDJSONRecordDecoder {
  /// What a record holds, before a raw receipt is read.
  enum Body {
    case response(VerifyReceiptResponse)
    case rawReceipt(base64: String)
  }

  struct Decoded {
    var accountId: String?
    var content: Body
    var environment: ReceiptEnvironment?
    var capturedAt: Timestamp?
  }

  /// Decodes one record.
  ///
  /// - Parameters:
  ///   - bytes: the record.
  ///   - allowBareResponse: whether a document that is itself a verifyReceipt response (no
  ///     `response` member) is accepted, as it is for `.json` files.
  static func decode(_ bytes: UnsafeRawBufferPointer, allowBareResponse: Bool)
    throws(RecordRejection) -> Decoded
  {
    var reader = JSONReader(bytes)
    do {
      let kind = try reader.peekKind()
      guard kind == .object else {
        // Only valid JSON can be "not an object"; anything else is malformed.
        var check = JSONReader(bytes)
        try check.skipValue()
        try check.finish()
        throw RecordRejection(.notAnObject, "the record is \(kind), not a JSON object")
      }
    } catch let error as JSONError {
      throw RecordRejection(error)
    } catch let rejection as RecordRejection {
      throw rejection
    } catch {
      throw RecordRejection(.malformedJSON, "\(error)")
    }
    if allowBareResponse && !hasRecordMembers(bytes) {
      do {
        let document = try VerifyReceiptDecoder.decode(bytes)
        return Decoded(
          accountId: document.accountId, content: .response(document.response),
          environment: document.response.environment, capturedAt: document.response.requestDate)
      } catch let error as LegacyDecodingError {
        throw RecordRejection(error)
      } catch {
        throw RecordRejection(.malformedJSON, "\(error)")
      }
    }
    return try decodeRecord(&reader, bytes)
  }

  private static func decodeRecord(_ reader: inout JSONReader, _ bytes: UnsafeRawBufferPointer)
    throws(RecordRejection) -> Decoded
  {
    var accountId: String?
    var response: VerifyReceiptResponse?
    var receiptData: String?
    var environment: ReceiptEnvironment?
    var capturedAt: Timestamp?
    var field: String?
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "account_id":
          field = "account_id"
          accountId = try reader.readLenientString()
        case "response":
          field = "response"
          if try !reader.readNullIfPresent() {
            response = try VerifyReceiptDecoder.decodeResponse(from: &reader, in: bytes).response
          }
        case "receipt_data", "receipt-data":
          field = key.description
          receiptData = try reader.readLenientString()
        case "environment":
          field = "environment"
          environment = try reader.readLenientString().map(ReceiptEnvironment.init)
        case "captured_at":
          field = "captured_at"
          capturedAt = try readInstant(&reader)
        default:
          try reader.skipValue()
        }
        field = nil
      }
      try reader.finish()
    } catch let error as JSONError {
      throw RecordRejection(error, field: field)
    } catch let error as LegacyDecodingError {
      throw RecordRejection(error, context: field)
    } catch let rejection as RecordRejection {
      throw rejection
    } catch {
      throw RecordRejection(.malformedJSON, "\(error)")
    }
    if let response {
      return Decoded(
        accountId: accountId, content: .response(response),
        environment: response.environment ?? environment,
        capturedAt: response.requestDate ?? capturedAt)
    }
    if let receiptData, !receiptData.isEmpty {
      return Decoded(
        accountId: accountId, content: .rawReceipt(base64: receiptData), environment: environment,
        capturedAt: capturedAt)
    }
    throw RecordRejection(
      .missingContent, "the record has neither a 'response' object nor 'receipt_data'")
  }

  /// `captured_at` as Unix milliseconds or an ISO 8601 string.
  private static func readInstant(_ reader: inout JSONReader) throws -> Timestamp? {
    let start = reader.offset
    if try reader.peekKind() == .number {
      return Timestamp(millisecondsSince1970: try reader.readInt64())
    }
    guard let text = try reader.readLenientString(), !text.isEmpty else { return nil }
    guard let instant = Timestamp(parsing: text) else {
      throw RecordRejection(
        .unparsableDate, "captured_at: unparsable instant '\(text.prefix(40))' at byte \(start)")
    }
    return instant
  }

  /// Whether the document's top level has the members of the record shape.
  private static func hasRecordMembers(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var reader = JSONReader(bytes)
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        if key == "response" || key == "receipt_data" || key == "receipt-data" { return true }
        try reader.skipValue()
      }
    } catch {
      // Malformed documents are reported by the full decode that follows.
    }
    return false
  }
}
