import Chronology

/// One accepted input record: whose it is, where it came from, what it holds, and its exact
/// bytes (stored verbatim so that nothing is ever thrown away).
public struct LegacyRecord: Sendable {
  /// What a record holds.
  public enum Content: Sendable {
    /// A decoded verifyReceipt response (any status, including errors: they are data).
    case response(VerifyReceiptResponse)
    /// A base64 app receipt (or iOS 6 transaction receipt) and what the raw-receipt reader found
    /// in it: every id, the bundle id, the creation date and the signature verdict.
    case rawReceipt(base64: String, seeds: RawReceiptSeeds)
    /// Ids the team already held (a CSV row, or an NDJSON record without a response): an
    /// original transaction id, or none when the record names only an app transaction id or an
    /// order id (``LegacyRecord/appTransactionId``, ``LegacyRecord/orderId``).
    case seed(originalTransactionId: String?)
  }

  /// The team's account id.
  public var accountId: String
  /// Where the record was read.
  public var position: RecordPosition
  /// The format it was read as.
  public var format: LegacyInputFormat
  /// What it holds.
  public var content: Content
  /// The environment the record names (the response's `environment`, the CSV column, or the
  /// NDJSON record's `environment`), the first guess for the Server API.
  public var environment: ReceiptEnvironment?
  /// When the record was captured: the response's `request_date`, else the record's own
  /// `captured_at`; `nil` when neither exists.
  public var capturedAt: Timestamp?
  /// The record's bytes exactly as read (the NDJSON line, the file, the CSV row).
  public var rawBytes: [UInt8]
  /// The customer's `appTransactionId`, when the team stored it: the App Store Server API
  /// accepts it wherever it accepts a transaction id, and every customer has one, even one who
  /// never bought anything.
  public var appTransactionId: String?
  /// An order id of the customer's (from a receipt e-mail), when the team stored one: Look Up
  /// Order ID turns it into the customer's transactions.
  public var orderId: String?
  /// The fields that could not be used and were set aside; a record with any is *partial*.
  public var setAside: [SetAsideField]

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - accountId: the team's account id.
  ///   - position: where it was read.
  ///   - format: the format it was read as.
  ///   - content: what it holds.
  ///   - environment: the environment hint.
  ///   - capturedAt: the capture instant.
  ///   - rawBytes: the exact bytes.
  ///   - appTransactionId: the customer's app transaction id, if stored.
  ///   - orderId: an order id of the customer's, if stored.
  ///   - setAside: the fields set aside.
  public init(
    accountId: String, position: RecordPosition, format: LegacyInputFormat, content: Content,
    environment: ReceiptEnvironment?, capturedAt: Timestamp?, rawBytes: [UInt8],
    appTransactionId: String? = nil, orderId: String? = nil, setAside: [SetAsideField] = []
  ) {
    self.accountId = accountId
    self.position = position
    self.format = format
    self.content = content
    self.environment = environment
    self.capturedAt = capturedAt
    self.rawBytes = rawBytes
    self.appTransactionId = appTransactionId
    self.orderId = orderId
    self.setAside = setAside
  }

  /// Whether some fields were set aside: the record is accepted, but not whole.
  public var isPartial: Bool { !setAside.isEmpty }

  /// The distinct original transaction ids the record provides directly (not its app
  /// transaction id or order id).
  public var originalTransactionIds: [String] {
    switch content {
    case .response(let response): return response.originalTransactionIds
    case .rawReceipt(_, let seeds): return seeds.originalTransactionIds
    case .seed(let id): return id.map { [$0] } ?? []
    }
  }
}
