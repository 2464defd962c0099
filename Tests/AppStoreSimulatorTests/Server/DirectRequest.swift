import AppStoreSimulator
import HTTPServer

// The HTTP server's request type shares its name with the App Store client's; this file imports
// only the server's, to build requests for `SimulatorServer.respond(to:in:)`.

/// A request handed straight to the simulator, without sockets.
typealias DirectRequest = HTTPRequest

/// A response from `SimulatorServer.respond(to:in:)`.
typealias DirectResponse = HTTPResponse

extension SimulatorHarness {
  /// Answers a GET as the production listener would, without sockets.
  func direct(_ path: String) throws -> DirectResponse {
    server.respond(
      to: DirectRequest(
        method: .get, path: path, headers: ["Authorization": "Bearer \(try validToken())"]),
      in: .production)
  }
}
