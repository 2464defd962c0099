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
  /// A history request that carries a `revision` is refused with 400 `4000005`, whichever
  /// revision it is (a request without one is answered): the App Store refusing every revision,
  /// so a client that restarts its walk on a refused revision must bound how often it does.
  case refusedRevision = "refused-revision"

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
