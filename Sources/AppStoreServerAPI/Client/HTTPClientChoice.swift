import Foundation

/// Which HTTP stack the App Store client sends its requests with.
///
/// The project's own socket client is the default; Foundation's `URLSession` stays available,
/// chosen with `RECEIPT_MIGRATE_HTTP_CLIENT=urlsession`, so that the two can be measured against
/// each other and so that a problem with one can be worked around with the other.
public enum HTTPClientChoice: String, Sendable, CaseIterable {
  /// ``SocketHTTPTransport``: POSIX sockets and OpenSSL.
  case sockets
  /// ``URLSessionTransport``: Foundation's `URLSession` (libcurl on Linux).
  case urlsession

  /// The environment variable that chooses.
  public static let environmentVariable = "RECEIPT_MIGRATE_HTTP_CLIENT"

  /// The choice `environment` makes; ``sockets`` when the variable is unset or empty.
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: The choice.
  /// - Throws: ``ConfigurationError`` for a value that names neither client.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ConfigurationError) -> HTTPClientChoice {
    guard let value = environment[environmentVariable], !value.isEmpty else { return .sockets }
    guard let choice = HTTPClientChoice(rawValue: value.lowercased()) else {
      throw ConfigurationError(
        "\(environmentVariable)=\(value) names no HTTP client; use "
          + allCases.map(\.rawValue).joined(separator: " or ") + ", or leave it unset")
    }
    return choice
  }

  /// A new transport of this kind.
  ///
  /// - Parameter timeout: Seconds before a request fails with ``TransportFailure/timedOut``.
  /// - Returns: The transport, with its own connections.
  public func makeTransport(timeout: Double = 30) -> any HTTPTransport {
    switch self {
    case .sockets: SocketHTTPTransport(timeout: timeout)
    case .urlsession: URLSessionTransport(timeout: timeout)
    }
  }
}
