import Glibc

/// The socket system calls the server makes, wrapped with its error messages.
enum Socket {
  /// Creates a non-blocking listening socket bound to a loopback address.
  ///
  /// - Returns: The descriptor and the address actually bound (with the ephemeral port filled in).
  /// - Throws: `addressNotLoopback` for any address outside 127.0.0.0/8, `socketFailure` when a
  ///   system call fails.
  static func makeListener(
    address: String, port: Int, backlog: Int
  ) throws(HTTPServerError) -> (descriptor: Int32, address: SocketAddress) {
    var internetAddress = in_addr()
    guard inet_pton(AF_INET, address, &internetAddress) == 1 else {
      throw HTTPServerError(
        .addressNotLoopback,
        "cannot listen on \"\(address)\": it is not an IPv4 address literal; "
          + "the HTTP server listens on loopback only, use 127.0.0.1")
    }
    guard UInt32(bigEndian: internetAddress.s_addr) >> 24 == 127 else {
      throw HTTPServerError(
        .addressNotLoopback,
        "cannot listen on \(address): the HTTP server listens on loopback addresses "
          + "(127.0.0.0/8) only, so that nothing outside this machine can reach it; "
          + "use 127.0.0.1")
    }
    let type = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
    let descriptor = socket(AF_INET, type, 0)
    guard descriptor >= 0 else {
      throw .system(
        .socketFailure, "cannot create a socket for the HTTP server", errorNumber: errno,
        nextStep: "check the process's file descriptor limit (ulimit -n)")
    }
    do throws(HTTPServerError) {
      // Lets a restarted server take its port back while old connections sit in TIME_WAIT.
      try setOption(descriptor, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
      var socketAddress = sockaddr_in()
      socketAddress.sin_family = sa_family_t(AF_INET)
      socketAddress.sin_port = in_port_t(port).bigEndian
      socketAddress.sin_addr = internetAddress
      let bound = withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else {
        throw HTTPServerError.system(
          .socketFailure, "cannot listen on \(address):\(port)", errorNumber: errno,
          nextStep: "choose another port, or port 0 for a free one")
      }
      guard listen(descriptor, Int32(clamping: backlog)) == 0 else {
        throw HTTPServerError.system(
          .socketFailure, "cannot listen on \(address):\(port)", errorNumber: errno,
          nextStep: "check the listenBacklog setting")
      }
      return (descriptor, try localAddress(of: descriptor))
    } catch {
      _ = close(descriptor)
      throw error
    }
  }

  /// Prepares an accepted socket: close-on-exec, non-blocking, and no Nagle delay, so a response
  /// written in one call leaves at once instead of waiting for the client's delayed ACK.
  ///
  /// - Returns: `false` when a call failed and the connection should be dropped.
  static func configureAccepted(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFL)
    var enable: Int32 = 1
    return fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 && flags >= 0
      && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
      && setsockopt(
        descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enable,
        socklen_t(MemoryLayout<Int32>.size)) == 0
  }

  /// The dotted-decimal form of an IPv4 socket address.
  static func socketAddress(_ address: sockaddr_in) -> SocketAddress {
    let value = UInt32(bigEndian: address.sin_addr.s_addr)
    let host = [24, 16, 8, 0].map { String((value >> $0) & 0xFF) }.joined(separator: ".")
    return SocketAddress(host: host, port: Int(UInt16(bigEndian: address.sin_port)))
  }

  private static func localAddress(of descriptor: Int32) throws(HTTPServerError) -> SocketAddress {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    guard result == 0 else {
      throw .system(
        .socketFailure, "cannot read the HTTP server's bound address", errorNumber: errno,
        nextStep: "this should not happen; report it")
    }
    return socketAddress(address)
  }

  private static func setOption(
    _ descriptor: Int32, _ level: Int32, _ option: Int32, _ value: Int32, _ name: String
  ) throws(HTTPServerError) {
    var value = value
    guard setsockopt(descriptor, level, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    else {
      throw .system(
        .socketFailure, "cannot set \(name) on the HTTP server's socket", errorNumber: errno,
        nextStep: "this should not happen; report it")
    }
  }
}
