/// Apple's numeric error code from an error body (`errorCode`), kept raw so that codes Apple
/// adds later survive; the codes that matter for migration have names.
public struct APIErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The number as Apple sent it, such as 4040010.
  public let rawValue: Int64

  /// A code from its number.
  ///
  /// - Parameter rawValue: The number.
  public init(rawValue: Int64) {
    self.rawValue = rawValue
  }

  /// 4000002: the app identifier is invalid (a JWT without `bid`, a wrong bundle id).
  public static let invalidAppIdentifier = APIErrorCode(rawValue: 4_000_002)
  /// 4000005: the revision token is invalid; restart that walk from the beginning.
  public static let invalidRevision = APIErrorCode(rawValue: 4_000_005)
  /// 4000006: the transaction id is malformed.
  public static let invalidTransactionId = APIErrorCode(rawValue: 4_000_006)
  /// 4000012: the notification history's start date lies further back than Apple keeps.
  public static let startDateTooFarInPast = APIErrorCode(rawValue: 4_000_012)
  /// 4000014: the notification history's pagination token is invalid.
  public static let invalidPaginationToken = APIErrorCode(rawValue: 4_000_014)
  /// 4000017: the notification history's pagination token has expired; start the window again.
  public static let paginationTokenExpired = APIErrorCode(rawValue: 4_000_017)
  /// 4000019: `transactionId` and `notificationType` cannot be combined.
  public static let transactionIdAndNotificationTypeExclusive = APIErrorCode(rawValue: 4_000_019)
  /// 4000048: an app transaction id was given where the endpoint takes a transaction id.
  public static let appTransactionIdNotSupported = APIErrorCode(rawValue: 4_000_048)
  /// 4000183: the app account token is not a UUID.
  public static let invalidAppAccountToken = APIErrorCode(rawValue: 4_000_183)
  /// 4000185: the transaction is family-shared.
  public static let familySharedTransaction = APIErrorCode(rawValue: 4_000_185)
  /// 4000187: the id is not an original transaction id.
  public static let transactionIdIsNotOriginal = APIErrorCode(rawValue: 4_000_187)
  /// 4000227: the purchase is owned `ASSIGNED`, which takes no app account token (newer API
  /// versions; not in Apple's documentation of the endpoint yet).
  public static let assignedTransactionNotSupported = APIErrorCode(rawValue: 4_000_227)
  /// 4040001: account not found.
  public static let accountNotFound = APIErrorCode(rawValue: 4_040_001)
  /// 4040002: account not found, try again.
  public static let accountNotFoundRetryable = APIErrorCode(rawValue: 4_040_002)
  /// 4040003: app not found.
  public static let appNotFound = APIErrorCode(rawValue: 4_040_003)
  /// 4040004: app not found, try again.
  public static let appNotFoundRetryable = APIErrorCode(rawValue: 4_040_004)
  /// 4040005: original transaction id not found.
  public static let originalTransactionIdNotFound = APIErrorCode(rawValue: 4_040_005)
  /// 4040006: original transaction id not found, try again.
  public static let originalTransactionIdNotFoundRetryable = APIErrorCode(rawValue: 4_040_006)
  /// 4040007: no App Store Server Notifications URL is configured for the environment.
  public static let serverNotificationURLNotFound = APIErrorCode(rawValue: 4_040_007)
  /// 4040008: no test notification has this token (unknown, or older than six months).
  public static let testNotificationNotFound = APIErrorCode(rawValue: 4_040_008)
  /// 4040010: transaction id not found in this environment; try the other one.
  public static let transactionIdNotFound = APIErrorCode(rawValue: 4_040_010)
  /// 4040019: the customer has no app transaction.
  public static let appTransactionDoesNotExist = APIErrorCode(rawValue: 4_040_019)
  /// 4290000: rate limit exceeded.
  public static let rateLimitExceeded = APIErrorCode(rawValue: 4_290_000)
  /// 5000000: unknown server error.
  public static let generalInternal = APIErrorCode(rawValue: 5_000_000)
  /// 5000001: unknown server error, try again.
  public static let generalInternalRetryable = APIErrorCode(rawValue: 5_000_001)

  /// The codes Apple documents as "please try again".
  public static let retryableCodes: Set<APIErrorCode> = [
    accountNotFoundRetryable, appNotFoundRetryable, originalTransactionIdNotFoundRetryable,
    generalInternalRetryable,
  ]

  /// What the code means and what to do, for known codes.
  public var meaning: String? {
    switch self {
    case .invalidAppIdentifier:
      "invalid app identifier; check APP_BUNDLE_ID and the key's app"
    case .invalidRevision: "invalid revision; restart this history walk from the beginning"
    case .invalidTransactionId: "the transaction id is malformed; record it as bad input"
    case .transactionIdAndNotificationTypeExclusive:
      "transactionId and notificationType cannot be combined; send one of them"
    case .appTransactionIdNotSupported:
      "an app transaction id is not supported here; send an original transaction id"
    case .invalidAppAccountToken: "the app account token is not a UUID"
    case .familySharedTransaction: "the transaction is family-shared"
    case .transactionIdIsNotOriginal: "the id is not an original transaction id"
    case .assignedTransactionNotSupported:
      "the purchase is owned ASSIGNED; Apple takes no app account token for it"
    case .accountNotFound: "account not found"
    case .appNotFound: "app not found"
    case .originalTransactionIdNotFound: "original transaction id not found"
    case .accountNotFoundRetryable, .appNotFoundRetryable,
      .originalTransactionIdNotFoundRetryable:
      "not found yet; the App Store asks to try again"
    case .transactionIdNotFound:
      "transaction id not found in this environment; try the other environment"
    case .appTransactionDoesNotExist: "the customer has no app transaction"
    case .serverNotificationURLNotFound:
      "no App Store Server Notifications URL is configured for this environment"
    case .testNotificationNotFound: "no test notification has this token"
    case .rateLimitExceeded: "rate limit exceeded; wait until Retry-After"
    case .generalInternal: "unknown server error"
    case .generalInternalRetryable: "unknown server error; the App Store asks to try again"
    default: nil
    }
  }

  /// The number, followed by its meaning when known: `4040010 (transaction id not found …)`.
  public var description: String {
    meaning.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
  }
}
