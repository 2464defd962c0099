/// What one endpoint of one environment has answered.
public struct SimulatorEndpointCounters: Sendable, Hashable {
  /// Requests received.
  public var requests = 0
  /// Answers by HTTP status (dropped connections are not answers).
  public var statuses: [Int: Int] = [:]
  /// Error answers by `errorCode`.
  public var errorCodes: [Int64: Int] = [:]
  /// Faults acted out, by kind.
  public var faults: [FaultKind: Int] = [:]
  /// 401 answers by reason.
  public var tokenRejections: [TokenRejection: Int] = [:]

  /// Creates zero counters.
  public init() {}

  /// Answers with this status.
  ///
  /// - Parameter status: the HTTP status.
  /// - Returns: how many.
  public func answers(withStatus status: Int) -> Int { statuses[status] ?? 0 }
}
