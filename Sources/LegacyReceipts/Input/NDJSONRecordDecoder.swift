import Chronology
import JSON

/// Decodes the record shape shared by NDJSON lines (and accepted for `.json` files):
/// `{"account_id": "...", "response": {...}}` or `{"account_id": "...", "receipt_data": "..."}`,
/// with optional `environment`, `captured_at` (Unix ms or ISO 8601), `app_transaction_id` and
/// `order_id` members; a record may also hold only those ids.
///
/// A member that cannot be used is set aside (``Decoded/setAside``) and the rest is read; a
/// record is refused only when nothing usable remains: no account, no response, raw receipt
/// or id.
enum NDJSONRecordDecoder {
  /// What a record holds, before a raw receipt is read.
  enum Body {
    case response(VerifyReceiptResponse)
    case rawReceipt(base64: String)
    /// Neither: only an app transaction id or an order id.
    case idsOnly
  }

  struct Decoded {
    var accountId: String?
    var content: Body
    var environment: ReceiptEnvironment?
    var capturedAt: Timestamp?
    var appTransactionId: String?
    var orderId: String?
    var setAside: [SetAsideField] = []
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
          environment: document.response.environment, capturedAt: document.response.requestDate,
          setAside: document.setAside)
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
    var appTransactionId: String?
    var orderId: String?
    var damage = DamageCollector()
    var field: String?
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "account_id":
          field = "account_id"
          // Without its account a record is nothing: a wrong type here is refused, not set
          // aside.
          accountId = try reader.readLenientString()
        case "response":
          field = "response"
          if try reader.readNullIfPresent() {
            break
          } else if try reader.peekKind() == .object {
            var nested = DamageCollector(root: "response")
            response = try VerifyReceiptDecoder.decodeResponse(
              from: &reader, in: bytes, damage: &nested
            ).response
            for entry in nested.fields { damage.append(entry) }
          } else {
            try damage.skipWrongKind(
              "response", from: &reader, in: bytes, expected: "a verifyReceipt response object")
          }
        case "receipt_data":
          field = "receipt_data"
          receiptData = try damage.string("receipt_data", from: &reader, in: bytes)
        case "receipt-data":
          field = "receipt-data"
          receiptData = try damage.string("receipt-data", from: &reader, in: bytes)
        case "environment":
          field = "environment"
          environment = try damage.string("environment", from: &reader, in: bytes).map(
            ReceiptEnvironment.init)
        case "captured_at":
          field = "captured_at"
          capturedAt = try readInstant(&reader, bytes, &damage)
        case "app_transaction_id":
          field = "app_transaction_id"
          appTransactionId = try damage.identifier("app_transaction_id", from: &reader, in: bytes)
        case "order_id":
          field = "order_id"
          orderId = try readOrderId(&reader, bytes, &damage)
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
    var decoded = Decoded(
      accountId: accountId, content: .idsOnly, environment: environment, capturedAt: capturedAt,
      appTransactionId: appTransactionId, orderId: orderId, setAside: damage.fields)
    if let response {
      decoded.content = .response(response)
      decoded.environment = response.environment ?? environment
      decoded.capturedAt = response.requestDate ?? capturedAt
      return decoded
    }
    if let receiptData, !receiptData.isEmpty {
      decoded.content = .rawReceipt(base64: receiptData)
      return decoded
    }
    if appTransactionId != nil || orderId != nil { return decoded }
    if let first = damage.fields.first {
      // Something was there, and none of it can be used.
      throw RecordRejection(
        first.reason,
        "nothing usable remains: "
          + damage.fields.map { "\($0.path): \($0.detail)" }.joined(separator: "; "))
    }
    throw RecordRejection(
      .missingContent,
      "the record has neither a 'response' object nor 'receipt_data' (nor an app_transaction_id "
        + "or order_id)")
  }

  /// `captured_at` as Unix milliseconds or an ISO 8601 string; anything else is set aside.
  private static func readInstant(
    _ reader: inout JSONReader, _ bytes: UnsafeRawBufferPointer, _ damage: inout DamageCollector
  ) throws(JSONError) -> Timestamp? {
    let start = reader.offset
    if try reader.peekKind() == .number {
      return try damage.integer("captured_at", from: &reader, in: bytes)
        .map(Timestamp.init(millisecondsSince1970:))
    }
    guard
      let text = try damage.string("captured_at", from: &reader, in: bytes), !text.isEmpty
    else { return nil }
    guard let instant = Timestamp(parsing: text) else {
      damage.setAside(
        "captured_at", MaskedValue.isMask(text) ? .masked : .unparsableDate,
        "unparsable instant '\(text.prefix(40))' (Unix milliseconds or ISO 8601 expected)",
        value: Array(text.utf8), at: start)
      return nil
    }
    return instant
  }

  /// `order_id`: letters and digits; anything else is set aside.
  private static func readOrderId(
    _ reader: inout JSONReader, _ bytes: UnsafeRawBufferPointer, _ damage: inout DamageCollector
  ) throws(JSONError) -> String? {
    let start = reader.offset
    guard
      let text = try damage.string("order_id", from: &reader, in: bytes), !text.isEmpty
    else { return nil }
    if let problem = OrderIdentifierCheck.problem(with: text, field: "order_id") {
      damage.setAside(
        "order_id", problem.reason, problem.detail, value: Array(text.utf8), at: start)
      return nil
    }
    return text
  }

  /// Whether the document's top level has the members of the record shape.
  private static func hasRecordMembers(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var reader = JSONReader(bytes)
    do {
      try reader.beginObject()
      while let key = try reader.nextKey() {
        if key == "response" || key == "receipt_data" || key == "receipt-data"
          || key == "app_transaction_id" || key == "order_id"
        {
          return true
        }
        try reader.skipValue()
      }
    } catch {
      // Malformed documents are reported by the full decode that follows.
    }
    return false
  }
}
