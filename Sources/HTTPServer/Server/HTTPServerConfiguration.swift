/// Where an `HTTPServer` listens, its limits and its timeouts.
///
/// The defaults suit a loopback simulator serving one client process: generous enough that no
/// well-behaved client meets them, small enough that a misbehaving one cannot hold the server.
public struct HTTPServerConfiguration: Sendable {
  /// The IPv4 loopback address to listen on, `127.0.0.1` by default.
  ///
  /// Only addresses in 127.0.0.0/8 are accepted: the server exists for tests and local
  /// simulation and must never be reachable from another machine.
  public var address: String
  /// The TCP port; 0 (the default) picks a free ephemeral port, readable as `HTTPServer.port`.
  public var port: Int
  /// The most connections served at once, 256 by default.
  ///
  /// When every slot is taken, the server stops accepting: new connections wait in the kernel's
  /// accept backlog (they are never answered 503) until a slot frees. If some of the open
  /// connections are idle keep-alive connections, the longest-idle one is closed at once to make
  /// room, as a client may reuse or drop an idle connection at any time anyway.
  public var maximumConnections: Int
  /// The length of the kernel's queue of connections not yet accepted, 128 by default.
  public var listenBacklog: Int
  /// The largest request line plus header block, and separately the largest chunked trailer
  /// block, in bytes; 16 KiB by default. Larger ones are answered 431.
  public var maximumHeaderBytes: Int
  /// The largest request body in bytes, 1 MiB by default. Larger ones are answered 413.
  public var maximumBodyBytes: Int
  /// How long an open connection may sit between requests before the server closes it, 30 s by
  /// default.
  public var idleTimeout: Duration
  /// How long a client may take to send one whole request, from its first byte to the end of its
  /// body, 10 s by default; a slower client's connection is closed unanswered.
  ///
  /// A total rather than per-read limit, so a client trickling one byte at a time cannot hold a
  /// connection forever.
  public var readTimeout: Duration
  /// How long writing one response may take before the server gives up on a client that does not
  /// read, 10 s by default.
  public var writeTimeout: Duration
  /// Called once for every request the server finishes with, answered or not, on the
  /// connection's thread after the outcome is settled; `nil` by default.
  ///
  /// Keep it quick: the connection waits for it.
  public var requestLog: (@Sendable (HTTPRequestLogEntry) -> Void)?

  /// Creates a configuration; every parameter has the default described on its property.
  ///
  /// - Parameters:
  ///   - address: The loopback address to listen on.
  ///   - port: The TCP port, 0 for an ephemeral one.
  ///   - maximumConnections: The most connections served at once.
  ///   - listenBacklog: The kernel's accept queue length.
  ///   - maximumHeaderBytes: The request line plus headers limit.
  ///   - maximumBodyBytes: The request body limit.
  ///   - idleTimeout: The keep-alive idle limit.
  ///   - readTimeout: The time allowed to receive one request.
  ///   - writeTimeout: The time allowed to send one response.
  ///   - requestLog: A callback for every finished request.
  public init(
    address: String = "127.0.0.1",
    port: Int = 0,
    maximumConnections: Int = 256,
    listenBacklog: Int = 128,
    maximumHeaderBytes: Int = 16 * 1024,
    maximumBodyBytes: Int = 1024 * 1024,
    idleTimeout: Duration = .seconds(30),
    readTimeout: Duration = .seconds(10),
    writeTimeout: Duration = .seconds(10),
    requestLog: (@Sendable (HTTPRequestLogEntry) -> Void)? = nil
  ) {
    self.address = address
    self.port = port
    self.maximumConnections = maximumConnections
    self.listenBacklog = listenBacklog
    self.maximumHeaderBytes = maximumHeaderBytes
    self.maximumBodyBytes = maximumBodyBytes
    self.idleTimeout = idleTimeout
    self.readTimeout = readTimeout
    self.writeTimeout = writeTimeout
    self.requestLog = requestLog
  }

  /// Checks the numeric settings; the address is checked when the socket is made.
  func validate() throws(HTTPServerError) {
    func require(_ condition: Bool, _ setting: String, _ rule: String) throws(HTTPServerError) {
      guard condition else {
        throw HTTPServerError(
          .invalidConfiguration,
          "the HTTP server's \(setting) must be \(rule); fix the HTTPServerConfiguration")
      }
    }
    try require((0...65535).contains(port), "port \(port)", "between 0 and 65535")
    try require(maximumConnections > 0, "maximumConnections", "at least 1")
    try require(listenBacklog > 0, "listenBacklog", "at least 1")
    try require(maximumHeaderBytes >= 64, "maximumHeaderBytes", "at least 64")
    try require(maximumBodyBytes >= 0, "maximumBodyBytes", "0 or more")
    try require(idleTimeout > .zero, "idleTimeout", "positive")
    try require(readTimeout > .zero, "readTimeout", "positive")
    try require(writeTimeout > .zero, "writeTimeout", "positive")
  }
}
