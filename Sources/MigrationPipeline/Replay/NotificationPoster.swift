import HTTPClient
import JSON

/// Sends one notification's signed payload to the team's endpoint as Apple sends notifications:
/// a `POST` with the body `{"signedPayload":"<JWS>"}` and `Content-Type: application/json`.
///
/// Besides the App Store client's transport, this is the only HTTP client in the tool (see
/// `Documentation/Development.md`): the request is built here and nowhere else, on the project's
/// own `SocketHTTPClient` (TLS always verifies the chain and the host name). It is sent once —
/// a `POST` is never repeated by the client — and the answer is told apart in three ways: an
/// answer with its status; a failure before any byte could reach the server (it was not
/// delivered); and a failure after the request may have reached it (in doubt).
public final class NotificationPoster: Sendable {
  /// What became of one request.
  public enum Outcome: Hashable, Sendable {
    /// The server answered with this status; `excerpt` is the start of its body, for a person.
    case answered(status: Int, excerpt: String)
    /// The request did not reach the server (the host did not resolve, no connection, TLS
    /// refused, the request could not be made).
    case notDelivered(String)
    /// The request may have reached the server, but no complete answer came back (timed out,
    /// connection closed mid-answer, an answer the client could not read).
    case inDoubt(String)
  }

  /// The endpoint.
  public let destination: ReplayDestination
  private let client: SocketHTTPClient
  private let userAgent: String

  /// The most bytes of an answer's body kept, for the journal and the summary.
  static let excerptBytes = 200

  /// Creates a poster with its own connection.
  ///
  /// - Parameters:
  ///   - destination: the endpoint.
  ///   - userAgent: the `User-Agent` sent, so the team's logs tell a replay from Apple.
  ///   - timeout: how long a request may take, connecting included.
  ///   - additionalTrustedCertificatesPEM: certificates to trust besides the system's (an
  ///     endpoint behind the team's own authority).
  public init(
    destination: ReplayDestination, userAgent: String, timeout: Duration = .seconds(30),
    additionalTrustedCertificatesPEM: [String] = []
  ) {
    var configuration = HTTPClientConfiguration()
    configuration.timeout = timeout
    configuration.maximumConcurrentRequests = 1
    configuration.maximumIdleConnectionsPerHost = 1
    // A POST that finds its kept-alive connection closed by the server cannot be sent again
    // (it may have arrived): a connection idle for longer than servers commonly keep one open
    // is not reused at all.
    configuration.idleConnectionLifetime = .seconds(2)
    configuration.additionalTrustedCertificatesPEM = additionalTrustedCertificatesPEM
    configuration.maximumResponseBytes = 1 << 20
    self.destination = destination
    self.userAgent = userAgent
    client = SocketHTTPClient(configuration: configuration)
  }

  /// The request body for a signed payload: `{"signedPayload":"<JWS>"}`.
  ///
  /// - Parameter signedPayload: the notification's JWS, as Apple signed it.
  /// - Returns: the UTF-8 bytes.
  public static func body(signedPayload: String) -> [UInt8] {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("signedPayload", signedPayload)
    writer.endObject()
    return Array(writer.string.utf8)
  }

  /// Sends one signed payload and waits for the answer.
  ///
  /// - Parameter signedPayload: the notification's JWS.
  /// - Returns: what became of the request; this never throws, every failure is an outcome.
  public func post(signedPayload: String) async -> Outcome {
    let request = HTTPClientRequest(
      method: "POST", scheme: destination.scheme, host: destination.host, port: destination.port,
      target: destination.target,
      headers: [
        (name: "Content-Type", value: "application/json"), (name: "User-Agent", value: userAgent),
      ],
      body: Self.body(signedPayload: signedPayload))
    do {
      let response = try await client.execute(request)
      let excerpt = String(
        decoding: response.body.prefix(Self.excerptBytes), as: UTF8.self)
      return .answered(status: response.status, excerpt: excerpt)
    } catch {
      switch error.kind {
      case .cannotResolve, .cannotConnect, .tlsFailure, .certificateRejected, .invalidRequest,
        .cancelled, .shutDown:
        return .notDelivered(error.message)
      case .timedOut, .connectionClosed, .truncatedBody, .malformedResponse, .responseTooLarge:
        return .inDoubt(error.message)
      }
    }
  }

  /// Closes the connection.
  public func shutDown() {
    client.shutDown()
  }
}
