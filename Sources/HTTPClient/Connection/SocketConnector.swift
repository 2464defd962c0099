import Glibc

/// Opens TCP connections: resolves the host with `getaddrinfo` (IPv4 and IPv6, in the order the
/// resolver prefers) and tries each address with a non-blocking `connect` until one answers or
/// the deadline passes.
enum SocketConnector {
  /// A connected, non-blocking, close-on-exec socket with Nagle's delay off.
  ///
  /// - Parameters:
  ///   - origin: The host and port.
  ///   - deadline: When to give up.
  /// - Returns: The descriptor.
  /// - Throws: ``HTTPClientError/Kind/cannotResolve``, ``HTTPClientError/Kind/cannotConnect``
  ///   or ``HTTPClientError/Kind/timedOut``.
  static func connect(
    to origin: Origin, until deadline: ContinuousClock.Instant
  ) throws(HTTPClientError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(origin.host, String(origin.port), &hints, &list)
    guard resolved == 0, let first = list else {
      let reason = String(cString: gai_strerror(resolved))
      throw HTTPClientError(
        .cannotResolve,
        "cannot resolve \(origin.host): \(reason); check the host name and the machine's DNS")
    }
    defer { freeaddrinfo(first) }
    var lastReason = "no address"
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let entry = candidate {
      candidate = entry.pointee.ai_next
      switch attempt(entry.pointee, until: deadline) {
      case .success(let descriptor): return descriptor
      case .failure(let error) where error.kind == .timedOut: throw error
      case .failure(let error): lastReason = error.message
      }
    }
    throw HTTPClientError(
      .cannotConnect,
      "cannot connect to \(origin): \(lastReason); check that the server is up and reachable")
  }

  /// One address: a descriptor connected to it, or why not.
  private static func attempt(
    _ address: addrinfo, until deadline: ContinuousClock.Instant
  ) -> Result<Int32, HTTPClientError> {
    let type = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
    let descriptor = socket(address.ai_family, type, address.ai_protocol)
    guard descriptor >= 0 else {
      return .failure(
        HTTPClientError(.cannotConnect, "socket() failed: \(describe(errno)) (ulimit -n?)"))
    }
    var enable: Int32 = 1
    _ = setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enable, socklen_t(MemoryLayout<Int32>.size))
    if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
      let error = errno
      guard error == EINPROGRESS else {
        _ = close(descriptor)
        return .failure(HTTPClientError(.cannotConnect, describe(error)))
      }
      switch Readiness.wait(for: descriptor, events: Int32(POLLOUT), until: deadline) {
      case .ready: break
      case .timedOut:
        _ = close(descriptor)
        return .failure(HTTPClientError(.timedOut, "connecting took longer than the timeout"))
      case .failed(let error):
        _ = close(descriptor)
        return .failure(HTTPClientError(.cannotConnect, "poll: \(describe(error))"))
      }
      var pending: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length)
      guard pending == 0 else {
        _ = close(descriptor)
        return .failure(HTTPClientError(.cannotConnect, describe(pending)))
      }
    }
    return .success(descriptor)
  }

  /// `strerror` text for an `errno` value.
  static func describe(_ error: Int32) -> String {
    String(cString: strerror(error))
  }
}
