/// Which of the app's values `decode` compared, and which it did not and why: the report says
/// only what verification did.
///
/// Each kind of value is verified as Apple's libraries verify it: a transaction against the
/// bundle id and the environment; renewal information against the environment alone (it names
/// no bundle id); an app transaction and a notification against the bundle id, the app Apple
/// id (in production only) and the environment. A check after the one that failed, or after a
/// failure of the chain or the signature, was not made either.
struct AppChecks: Equatable {
  /// One value of the app verification compares.
  enum Check: String, CaseIterable {
    case bundleId = "bundle id"
    case appAppleId = "app Apple id"
    case environment = "environment"
  }

  /// The checks made, in the order they ran.
  var made: [Check]
  /// The checks the kind would have made but verification did not reach.
  var notReached: [Check]
  /// The checks the kind never makes.
  var neverMade: [Check]

  /// What verification compared for a value of `kind` checked in `environment`, given its
  /// verdict.
  ///
  /// - Parameters:
  ///   - kind: the kind of value.
  ///   - environment: the environment it was checked against.
  ///   - verdict: the failure, or `nil` when it verified; `verified` false when nothing was.
  ///   - verified: whether verification ran at all (a trusted root was given).
  init(
    kind: SignedValueInspector.Kind, environment: AppStoreEnvironment,
    verdict: VerificationFailure?, verified: Bool
  ) {
    var checks: [Check]
    switch kind {
    case .transaction: checks = [.bundleId, .environment]
    case .renewalInfo: checks = [.environment]
    case .appTransaction, .notification:
      checks =
        environment == .production
        ? [.bundleId, .appAppleId, .environment]
        : [
          .bundleId, .environment,
        ]
    }
    neverMade = Check.allCases.filter { !checks.contains($0) }
    let failed: Check?
    switch verdict?.reason {
    case .bundleIdMismatch?: failed = .bundleId
    case .appAppleIdMismatch?: failed = .appAppleId
    case .environmentMismatch?: failed = .environment
    default: failed = nil
    }
    let reached: [Check]
    if !verified || (verdict != nil && failed == nil) {
      // Stopped before the app: the structure, the chain or the signature failed.
      reached = []
    } else if let failed, let index = checks.firstIndex(of: failed) {
      reached = Array(checks[...index])
    } else {
      reached = checks
    }
    made = reached
    notReached = checks.filter { !reached.contains($0) }
  }
}
