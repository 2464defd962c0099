import JSON

/// An error the App Store Server API answers with: `{"errorCode", "errorMessage"}`, with the
/// HTTP status equal to the code's first three digits.
///
/// The messages are the simulator's own words, in the style of Apple's.
struct APIErrorAnswer: Error, Hashable, Sendable {
  let code: Int64
  let message: String

  /// The HTTP status: the first three digits of the code.
  var status: Int { Int(code / 10_000) }

  /// The JSON body.
  var body: [UInt8] {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("errorCode", code)
    writer.field("errorMessage", message)
    writer.endObject()
    return writer.bytes
  }

  // MARK: - 400

  static let generalBadRequest = APIErrorAnswer(
    code: 4_000_000, message: "Bad request. The request could not be read.")
  static let invalidAppIdentifier = APIErrorAnswer(
    code: 4_000_002, message: "Invalid request. The app identifier is missing or invalid.")
  static let invalidRevision = APIErrorAnswer(
    code: 4_000_005, message: "Invalid request. The revision is invalid for this request.")
  static let invalidTransactionId = APIErrorAnswer(
    code: 4_000_006, message: "Invalid request. The transaction id is invalid.")
  static let startDateTooFarInPast = APIErrorAnswer(
    code: 4_000_012, message: "Invalid request. The start date is earlier than allowed.")
  static let startDateAfterEndDate = APIErrorAnswer(
    code: 4_000_013, message: "Invalid request. The end date must be later than the start date.")
  static let invalidPaginationToken = APIErrorAnswer(
    code: 4_000_014, message: "Invalid request. The pagination token is invalid.")
  static let paginationTokenExpired = APIErrorAnswer(
    code: 4_000_017, message: "Invalid request. The pagination token is expired.")
  static let invalidStartDate = APIErrorAnswer(
    code: 4_000_015, message: "Invalid request. The start date is invalid.")
  static let invalidEndDate = APIErrorAnswer(
    code: 4_000_016, message: "Invalid request. The end date is invalid.")
  static let invalidNotificationType = APIErrorAnswer(
    code: 4_000_018, message: "Invalid request. The notification type or subtype is invalid.")
  static let multipleFilters = APIErrorAnswer(
    code: 4_000_019,
    message: "Invalid request. Send either a transaction id or a notification type, not both.")
  static let invalidSort = APIErrorAnswer(
    code: 4_000_021, message: "Invalid request. The sort parameter is invalid.")
  static let invalidProductType = APIErrorAnswer(
    code: 4_000_022, message: "Invalid request. The product type parameter is invalid.")
  static let invalidProductId = APIErrorAnswer(
    code: 4_000_023, message: "Invalid request. The product id parameter is invalid.")
  static let invalidSubscriptionGroupIdentifier = APIErrorAnswer(
    code: 4_000_024,
    message: "Invalid request. The subscription group identifier parameter is invalid.")
  static let invalidInAppOwnershipType = APIErrorAnswer(
    code: 4_000_026, message: "Invalid request. The in-app ownership type parameter is invalid.")
  static let invalidRevoked = APIErrorAnswer(
    code: 4_000_030, message: "Invalid request. The revoked parameter is invalid.")
  static let invalidStatus = APIErrorAnswer(
    code: 4_000_031, message: "Invalid request. The status parameter is invalid.")
  static let appTransactionIdNotSupported = APIErrorAnswer(
    code: 4_000_048,
    message: "Invalid request. An app transaction id is not supported by this endpoint.")
  static let invalidAppAccountToken = APIErrorAnswer(
    code: 4_000_183, message: "Invalid request. The app account token is not a UUID.")
  static let familySharedTransaction = APIErrorAnswer(
    code: 4_000_185,
    message: "Invalid request. The app account token cannot be set on a family-shared purchase.")
  static let transactionIdIsNotOriginal = APIErrorAnswer(
    code: 4_000_187, message: "Invalid request. The transaction id is not an original one.")
  static let assignedTransactionNotSupported = APIErrorAnswer(
    code: 4_000_227,
    message: "Invalid request. The app account token cannot be set on an assigned purchase.")

  // MARK: - 404

  static let originalTransactionIdNotFound = APIErrorAnswer(
    code: 4_040_005, message: "Original transaction id not found.")
  static let serverNotificationURLNotFound = APIErrorAnswer(
    code: 4_040_007, message: "An invalid request: no App Store Server Notifications URL is set.")
  static let testNotificationNotFound = APIErrorAnswer(
    code: 4_040_008, message: "No test notification has this token.")
  static let transactionIdNotFound = APIErrorAnswer(
    code: 4_040_010, message: "Transaction id not found.")
  static let appTransactionDoesNotExist = APIErrorAnswer(
    code: 4_040_019, message: "No app transaction exists for this customer.")

  // MARK: - 429 and 500

  static let rateLimitExceeded = APIErrorAnswer(
    code: 4_290_000, message: "Rate limit exceeded.")
  static let generalInternal = APIErrorAnswer(
    code: 5_000_000, message: "An unknown error occurred.")

  /// Apple's unknown error, naming why: the world file the server reads customers from
  /// changed under it.
  static func unreadableWorld(_ error: WorldFileError) -> APIErrorAnswer {
    APIErrorAnswer(code: 5_000_000, message: "The simulator cannot read its world: \(error)")
  }

  /// The answer a fault of one of the five error kinds acts out.
  static func fault(_ kind: FaultKind) -> APIErrorAnswer? {
    switch kind {
    case .generalInternal: generalInternal
    case .generalInternalRetryable:
      APIErrorAnswer(code: 5_000_001, message: "An unknown error occurred. Please try again.")
    case .accountNotFoundRetryable:
      APIErrorAnswer(code: 4_040_002, message: "Account not found. Please try again.")
    case .appNotFoundRetryable:
      APIErrorAnswer(code: 4_040_004, message: "App not found. Please try again.")
    case .originalTransactionIdNotFoundRetryable:
      APIErrorAnswer(
        code: 4_040_006, message: "Original transaction id not found. Please try again.")
    case .dropConnection, .truncateBody, .malformedJSON, .badSignature, .distantRetryAfter,
      .refusedRevision, .extremeSignedDate:
      nil
    }
  }
}
