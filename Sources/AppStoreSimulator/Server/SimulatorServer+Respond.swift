import HTTPServer

extension SimulatorServer {
  /// Answers a request as the listener of `environment` would, without sockets: for tests that
  /// look at what the server decided (a delay, a fault) rather than at what a client sees.
  ///
  /// - Parameters:
  ///   - request: the request.
  ///   - environment: the listener that receives it.
  /// - Returns: the response, with its delay and fault unperformed.
  public func respond(to request: HTTPRequest, in environment: SimulatedEnvironment)
    -> HTTPResponse
  {
    responder.respond(to: request, in: environment)
  }
}
