import Glibc
import Synchronization

/// A small HTTP/1.1 server on a loopback port, one thread per connection.
///
/// ```swift
/// let server = try HTTPServer.start { request in
///   request.path == "/health" ? .text("ok") : .text("no such path", status: .notFound)
/// }
/// defer { server.stop() }
/// let url = "http://127.0.0.1:\(server.port)/health"
/// ```
///
/// Each connection gets its own thread, which reads a request, calls the handler synchronously,
/// writes the response and waits for the next request. A handler may therefore block or sleep
/// without holding up any other connection; with the few dozen connections a loopback client
/// opens, threads cost less than an event loop would in code and in latency.
///
/// The server speaks HTTP/1.1 and HTTP/1.0 with keep-alive and pipelining, reads `Content-Length`
/// and chunked bodies, answers `Expect: 100-continue`, and answers malformed or oversized
/// requests itself (400, 413, 417, 431, 501, 505) before closing the connection.
public final class HTTPServer: Sendable {
  /// Turns a request into a response; called on the connection's thread, concurrently for
  /// different connections.
  public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

  /// The address and port the server listens on.
  public let address: SocketAddress
  /// The configuration the server was started with.
  public let configuration: HTTPServerConfiguration

  /// Internal so that tests can watch the stop sequence and the registry.
  let core: ServerCore
  /// The acceptor thread while running; `nil` once stopped.
  private let acceptor: Mutex<pthread_t?>

  private init(address: SocketAddress, core: ServerCore, acceptor: pthread_t) {
    self.address = address
    self.configuration = core.configuration
    self.core = core
    self.acceptor = Mutex(acceptor)
  }

  deinit {
    stop()
  }

  /// The TCP port the server listens on; the ephemeral port the system chose when the
  /// configuration asked for port 0.
  public var port: Int { address.port }

  /// What the server has done so far; safe to read from any thread at any time.
  public var statistics: HTTPServerStatistics { core.statistics }

  // MARK: - Starting and stopping

  /// Binds the listening socket and starts accepting connections.
  ///
  /// - Parameters:
  ///   - configuration: The address, port, limits and timeouts.
  ///   - handler: Called once for every complete request.
  /// - Returns: The running server; call `stop()` when done with it.
  /// - Throws: `HTTPServerError` when the configuration is invalid, the address is not loopback,
  ///   the port is taken, or the system is out of descriptors or threads.
  public static func start(
    configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
    handler: @escaping Handler
  ) throws(HTTPServerError) -> HTTPServer {
    try configuration.validate()
    let (listener, address) = try Socket.makeListener(
      address: configuration.address, port: configuration.port,
      backlog: configuration.listenBacklog)
    let core: ServerCore
    do throws(HTTPServerError) {
      core = try ServerCore(configuration: configuration, handler: handler, listener: listener)
    } catch {
      _ = close(listener)
      throw error
    }
    do throws(HTTPServerError) {
      let acceptor = try NativeThread.spawn(name: "http-acceptor") { core.acceptConnections() }
      return HTTPServer(address: address, core: core, acceptor: acceptor)
    } catch {
      core.closeListener()
      core.closeSignals()
      throw error
    }
  }

  /// Stops the server: stops accepting, lets requests in progress finish, closes every
  /// connection and joins every thread.
  ///
  /// New connections are refused at once and idle keep-alive connections are closed. Requests
  /// already being read or handled may finish until the grace period ends, and are answered with
  /// `Connection: close`. When the grace period ends, every remaining connection is shut down
  /// and any response delay is cut short; a handler still running is waited for, as threads
  /// cannot be interrupted, but its answer goes nowhere. When `stop()` returns, every descriptor
  /// and thread the server created is closed and joined. Calling it again does nothing; calling it
  /// from a handler would wait for itself, and traps instead.
  ///
  /// - Parameter gracePeriod: How long requests in progress may take to finish; 5 s by default.
  public func stop(gracePeriod: Duration = .seconds(5)) {
    acceptor.withLock { acceptor in
      guard let thread = acceptor else { return }
      precondition(
        !core.isServerThread(pthread_self()),
        "HTTPServer.stop() was called from a request handler or log callback, whose thread it "
          + "would wait for forever; stop the server from another thread")
      core.beginStopping()
      NativeThread.join(thread)
      core.closeListener()
      if !core.waitForConnections(until: .now + gracePeriod) {
        core.forceConnectionsClosed()
        _ = core.waitForConnections(until: nil)
      }
      core.joinFinishedThreads()
      core.closeSignals()
      acceptor = nil
    }
  }
}
