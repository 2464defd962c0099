/// A failure the simulator can act out instead of (or on top of) its normal answer.
///
/// The raw value is the name used in `--faults` specifications.
public enum FaultKind: String, CaseIterable, Sendable, Hashable, Comparable,
  CustomStringConvertible
{
  /// 500 with `errorCode` 5000000 (unknown error; clients retry a few times).
  case generalInternal = "5000000"
  /// 500 with `errorCode` 5000001 (unknown error, "try again").
  case generalInternalRetryable = "5000001"
  /// 404 with `errorCode` 4040002 (account not found, "try again").
  case accountNotFoundRetryable = "4040002"
  /// 404 with `errorCode` 4040004 (app not found, "try again").
  case appNotFoundRetryable = "4040004"
  /// 404 with `errorCode` 4040006 (original transaction id not found, "try again").
  case originalTransactionIdNotFoundRetryable = "4040006"
  /// The connection is closed without a byte of the answer.
  case dropConnection = "drop"
  /// The answer's headers promise the whole body; half of it is sent, then the connection
  /// closes.
  case truncateBody = "truncate"
  /// A 2xx answer whose body is not JSON (its first `{` becomes `[`).
  case malformedJSON = "malformed"
  /// The first signed value of the answer carries a signature that does not verify.
  case badSignature = "bad-signature"
  /// 429 with `errorCode` 4290000 and a `Retry-After` far ahead of the wall clock
  /// (``FaultPlan/retryAfterDelay``, 24 hours by default): a server asking for a wait no run
  /// can afford.
  case distantRetryAfter = "retry-after"
  /// A request that carries a `revision` (history, refund history) is answered 4000005, as
  /// if Apple no longer accepted the token; one without a revision is answered normally. At
  /// rate 1, every revision is refused, every time.
  case refusedRevision = "refused-revision"
  /// The first signed value of the answer is signed again, correctly, with its `signedDate`
  /// at the earliest instant a JSON integer of 64 bits holds (`-9223372036854775808`): an
  /// answer whose numbers are at the edge of what a client's arithmetic can hold.
  case extremeSignedDate = "extreme-signed-date"

  /// The error code the fault answers with, for the five error faults.
  public var errorCode: Int64? { Int64(rawValue) }

  /// The name used in specifications.
  public var description: String { rawValue }

  /// Orders faults as they are declared, for stable output.
  ///
  /// - Parameters:
  ///   - lhs: a fault.
  ///   - rhs: another fault.
  /// - Returns: whether `lhs` is declared first.
  public static func < (lhs: FaultKind, rhs: FaultKind) -> Bool {
    let order = allCases
    return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
  }

  /// The fault a specification names: its raw value, or `500` for `5000000`.
  static func named(_ name: String) -> FaultKind? {
    if name == "500" { return .generalInternal }
    return FaultKind(rawValue: name.lowercased())
  }
}
