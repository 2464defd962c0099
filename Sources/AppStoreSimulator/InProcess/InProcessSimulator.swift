import AppStoreServerAPI
import Foundation
import HTTPServer

/// The simulator answering the App Store client inside this process, without sockets: an
/// ``HTTPTransport`` that hands each request to the same responder the loopback server uses —
/// authentication, rate limits, paging, errors and signing included — and returns its answer.
///
/// For building large stores quickly (`bench scale`): no connection, no HTTP parsing, no
/// context switch per request. Latency and connection faults, which only a socket can
/// perform, are not performed here. Everything a client is meant to meet on the wire is
/// tested against the real server; use this only where the wire is not what is measured.
public final class InProcessSimulator: HTTPTransport {
  /// The configuration it answers with.
  public let configuration: SimulatorConfiguration
  private let responder: SimulatorResponder

  /// The base URLs the client must use: hosts this transport recognises, never resolved.
  public static let baseURLOverrides: [AppStoreEnvironment: URL] = [
    .production: URL(string: "http://production.in-process.invalid") ?? URL(fileURLWithPath: "/"),
    .sandbox: URL(string: "http://sandbox.in-process.invalid") ?? URL(fileURLWithPath: "/"),
  ]

  /// Creates the simulator.
  ///
  /// - Parameter configuration: the world, chain, key, limits and clocks.
  /// - Throws: `SimulatorStartError` when a setting is out of range.
  public init(configuration: SimulatorConfiguration) throws(SimulatorStartError) {
    try configuration.validate()
    self.configuration = configuration
    responder = try SimulatorResponder.start(configuration: configuration)
  }

  /// Answers one request as the listener of its host's environment would.
  public func send(_ request: AppStoreServerAPI.HTTPRequest) async throws(TransportFailure)
    -> AppStoreServerAPI.HTTPResponse
  {
    let environment: SimulatedEnvironment =
      request.url.host == Self.baseURLOverrides[.sandbox]?.host ? .sandbox : .production
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let served = ServerRequest(
      method: HTTPMethod(rawValue: request.method),
      path: components?.path ?? request.url.path,
      queryItems: (components?.queryItems ?? []).map {
        HTTPQueryItem(name: $0.name, value: $0.value ?? "")
      },
      headers: HTTPHeaders(request.headers.map { HTTPHeaderField(name: $0.key, value: $0.value) }),
      body: request.body ?? [])
    let answer = responder.respond(to: served, in: environment)
    var headers: [String: String] = [:]
    for field in answer.headers { headers[field.name] = field.value }
    return AppStoreServerAPI.HTTPResponse(
      status: answer.status.code, headers: headers, body: answer.body)
  }
}
