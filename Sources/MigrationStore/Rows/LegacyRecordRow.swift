/// One accepted legacy record as stored: where it came from, what it is, and its exact bytes.
public struct LegacyRecordRow: Sendable {
  /// The team's account id.
  public var accountId: String
  /// SHA-256 of `raw`; an account never stores the same bytes twice.
  public var contentSHA256: [UInt8]
  /// The file the record was read from.
  public var sourcePath: String
  /// The 1-based line, for line-based formats.
  public var sourceLine: Int?
  /// The byte offset of the record in its file.
  public var sourceOffset: Int64
  /// `ndjson`, `json` or `csv`.
  public var format: String
  /// `response`, `raw_receipt` or `seed`.
  public var kind: String
  /// The verifyReceipt status, for responses.
  public var status: Int64?
  /// The environment the record names.
  public var environment: String?
  /// The capture instant (Unix ms).
  public var capturedMilliseconds: Int64?
  /// The receipt's bundle id.
  public var bundleId: String?
  /// `modern` or `iOS6`, for responses.
  public var shape: String?
  /// The record's exact bytes.
  public var raw: [UInt8]
  /// A compact copy of the decoded response, for a response that carries transactions: what
  /// `compare` reads instead of `raw`.
  public var compact: CompactCopy?
  /// The fields set aside (a partial record), in reading order.
  public var setAside: [SetAsideFieldRow] = []
  /// The order id the record names, if any.
  public var orderId: String?

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - accountId: the team's account id.
  ///   - contentSHA256: SHA-256 of `raw`.
  ///   - sourcePath: the source file.
  ///   - sourceLine: the 1-based line, if any.
  ///   - sourceOffset: the byte offset in the file.
  ///   - format: `ndjson`, `json` or `csv`.
  ///   - kind: `response`, `raw_receipt` or `seed`.
  ///   - status: the verifyReceipt status.
  ///   - environment: the environment the record names.
  ///   - capturedMilliseconds: the capture instant.
  ///   - bundleId: the bundle id.
  ///   - shape: the response layout.
  ///   - raw: the exact bytes.
  ///   - compact: the compact copy of its decoded response, if it carries transactions.
  public init(
    accountId: String, contentSHA256: [UInt8], sourcePath: String, sourceLine: Int?,
    sourceOffset: Int64, format: String, kind: String, status: Int64?, environment: String?,
    capturedMilliseconds: Int64?, bundleId: String?, shape: String?, raw: [UInt8],
    compact: CompactCopy? = nil
  ) {
    self.accountId = accountId
    self.contentSHA256 = contentSHA256
    self.sourcePath = sourcePath
    self.sourceLine = sourceLine
    self.sourceOffset = sourceOffset
    self.format = format
    self.kind = kind
    self.status = status
    self.environment = environment
    self.capturedMilliseconds = capturedMilliseconds
    self.bundleId = bundleId
    self.shape = shape
    self.raw = raw
    self.compact = compact
  }
}
