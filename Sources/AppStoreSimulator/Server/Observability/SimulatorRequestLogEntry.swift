import AppStoreServerAPI
import Chronology

/// One request as the simulator answered it. It never holds the `Authorization` header.
public struct SimulatorRequestLogEntry: Sendable, Hashable, CustomStringConvertible {
  /// The request's number, from 1, across both environments.
  public var sequence: Int
  /// When it was answered, by the wall clock.
  public var answeredAt: Timestamp
  /// The listener that received it.
  public var environment: SimulatedEnvironment
  /// The method, such as `GET`.
  public var method: String
  /// The percent-decoded path.
  public var path: String
  /// The endpoint, or `nil` when the path is not one.
  public var endpoint: Endpoint?
  /// The status answered, or `nil` when the connection was dropped unanswered.
  public var status: Int?
  /// The `errorCode` of an error answer.
  public var errorCode: Int64?
  /// Why the request token was refused, for a 401.
  public var tokenRejection: TokenRejection?
  /// The fault acted out, if any.
  public var fault: FaultKind?
  /// The latency added before answering.
  public var delay: Duration
  /// The length of the answer's body as produced (before a truncation fault cut it).
  public var bodyBytes: Int

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - sequence: the request's number.
  ///   - answeredAt: when it was answered.
  ///   - environment: the listener.
  ///   - method: the method.
  ///   - path: the path.
  ///   - endpoint: the endpoint.
  ///   - status: the status.
  ///   - errorCode: the error code.
  ///   - tokenRejection: why the token was refused.
  ///   - fault: the fault acted out.
  ///   - delay: the added latency.
  ///   - bodyBytes: the body's length.
  public init(
    sequence: Int, answeredAt: Timestamp, environment: SimulatedEnvironment, method: String,
    path: String, endpoint: Endpoint?, status: Int?, errorCode: Int64? = nil,
    tokenRejection: TokenRejection? = nil, fault: FaultKind? = nil, delay: Duration = .zero,
    bodyBytes: Int = 0
  ) {
    self.sequence = sequence
    self.answeredAt = answeredAt
    self.environment = environment
    self.method = method
    self.path = path
    self.endpoint = endpoint
    self.status = status
    self.errorCode = errorCode
    self.tokenRejection = tokenRejection
    self.fault = fault
    self.delay = delay
    self.bodyBytes = bodyBytes
  }

  /// One line: `#12 Production GET /inApps/v2/history/2000… 200 4312B`, with the error code,
  /// token rejection, fault and delay when there are any.
  public var description: String {
    var line = "#\(sequence) \(environment.rawValue) \(method) \(path) "
    line += status.map(String.init) ?? "dropped"
    if let errorCode { line += " \(errorCode)" }
    if let tokenRejection { line += " token=\(tokenRejection)" }
    if let fault { line += " fault=\(fault)" }
    if delay > .zero {
      let milliseconds =
        Double(delay.components.seconds) * 1000
        + Double(delay.components.attoseconds) / 1e15
      line += " delay=\(Int64(milliseconds.rounded()))ms"
    }
    line += " \(bodyBytes)B"
    return line
  }
}
