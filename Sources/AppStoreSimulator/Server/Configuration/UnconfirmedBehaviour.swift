import HTTPServer

/// The simulator's answers where Apple's documentation is silent: each is a setting, so the
/// client can be tried against every plausible behaviour instead of assuming one.
public struct UnconfirmedBehaviour: Sendable, Hashable {
  /// How an answer with nothing in it is shaped.
  public enum EmptyAnswer: String, Sendable, Hashable, CaseIterable {
    /// `signedTransactions: []` (history and refunds) and `data: []` (statuses).
    case emptyArrays = "empty-arrays"
    /// The array members are left out altogether.
    case omittedMembers = "omitted"
  }

  /// What the sandbox answers to an order id look-up.
  public enum SandboxOrderLookup: String, Sendable, Hashable, CaseIterable {
    /// `status: 1` (invalid) with no transactions, for every order id.
    case invalid
    /// The orders of sandbox customers, as production answers for its own.
    case likeProduction = "like-production"
  }

  /// Which error is answered when a request has an unusable transaction id and an invalid
  /// parameter at once.
  public enum ErrorPrecedence: String, Sendable, Hashable, CaseIterable {
    /// The path's transaction id is checked and resolved first (4000006, 4040010 win).
    case identifierFirst = "identifier-first"
    /// The query parameters and body are checked first (4000005, 4000021, … win).
    case parametersFirst = "parameters-first"
  }

  /// What Set App Account Token answers for a purchase whose `inAppOwnershipType` is
  /// `ASSIGNED` (a newer ownership type than Apple's documentation of the endpoint).
  public enum AssignedPurchaseToken: String, Sendable, Hashable, CaseIterable {
    /// `4000227`, as newer versions of the API are reported to answer.
    case refused
    /// The token is set, as on a purchased transaction.
    case accepted
  }

  /// How an empty history, refund history or status answer is shaped; `.emptyArrays` by default.
  public var emptyAnswers: EmptyAnswer
  /// What the sandbox answers to an order look-up; `.invalid` by default.
  public var sandboxOrderLookup: SandboxOrderLookup
  /// Which error wins when several are present; `.identifierFirst` by default.
  public var errorPrecedence: ErrorPrecedence
  /// Header fields sent with every 429 besides `Retry-After`; none by default.
  public var additionalRateLimitHeaders: HTTPHeaders
  /// How long a notification history pagination token stays valid, by the wall clock; after
  /// that it is answered `4000017` (Apple documents the error, not the lifetime). `nil` (the
  /// default): tokens never expire.
  public var notificationTokenLifetime: Duration?
  /// What Set App Account Token answers for an `ASSIGNED` purchase; `.refused` (`4000227`) by
  /// default.
  public var assignedPurchaseToken: AssignedPurchaseToken

  /// Creates the behaviour; every parameter has the default described on its property.
  ///
  /// - Parameters:
  ///   - emptyAnswers: the shape of empty answers.
  ///   - sandboxOrderLookup: the sandbox's order look-up answers.
  ///   - errorPrecedence: which error wins.
  ///   - additionalRateLimitHeaders: extra fields on 429 answers.
  ///   - notificationTokenLifetime: how long notification pagination tokens stay valid.
  ///   - assignedPurchaseToken: Set App Account Token's answer for an `ASSIGNED` purchase.
  public init(
    emptyAnswers: EmptyAnswer = .emptyArrays, sandboxOrderLookup: SandboxOrderLookup = .invalid,
    errorPrecedence: ErrorPrecedence = .identifierFirst,
    additionalRateLimitHeaders: HTTPHeaders = [:], notificationTokenLifetime: Duration? = nil,
    assignedPurchaseToken: AssignedPurchaseToken = .refused
  ) {
    self.assignedPurchaseToken = assignedPurchaseToken
    self.notificationTokenLifetime = notificationTokenLifetime
    self.emptyAnswers = emptyAnswers
    self.sandboxOrderLookup = sandboxOrderLookup
    self.errorPrecedence = errorPrecedence
    self.additionalRateLimitHeaders = additionalRateLimitHeaders
  }
}
