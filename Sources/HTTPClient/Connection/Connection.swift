import COpenSSL
import Glibc

/// One keep-alive connection to an origin: a non-blocking socket, TLS on top for `https`, and a
/// read buffer. Every wait is a `poll` against the request's deadline.
///
/// `@unchecked Sendable`: a connection belongs to exactly one thread at a time. A worker owns it
/// while it runs one exchange; between exchanges it sits in the ``ConnectionPool`` and moves
/// from one worker to the next only under the pool's lock.
final class Connection: @unchecked Sendable {
  /// Where the connection goes.
  let origin: Origin
  /// When it was last returned to the pool, for the idle lifetime.
  var idleSince: ContinuousClock.Instant = .now
  /// Exchanges completed on it; more than zero means it has been reused.
  var exchanges = 0

  private let descriptor: Int32
  /// The `SSL *` for `https`, `nil` for plain HTTP.
  private let tls: OpaquePointer?
  /// Bytes read and not consumed yet live in `storage[start..<end]`.
  private let storage: UnsafeMutableRawPointer
  private(set) var start = 0
  private(set) var end = 0

  /// The size of a read; one TLS record holds at most 16 KB.
  private static let capacity = 64 << 10

  /// Connects to `origin`, with a TLS handshake that verifies the chain and the host name when
  /// `tlsContext` is given.
  ///
  /// - Throws: ``HTTPClientError`` of kind `cannotResolve`, `cannotConnect`, `tlsFailure` or
  ///   `timedOut`.
  init(
    to origin: Origin, tlsContext: TLSContext?, until deadline: ContinuousClock.Instant
  ) throws(HTTPClientError) {
    let descriptor = try SocketConnector.connect(to: origin, until: deadline)
    var session: OpaquePointer?
    if let tlsContext {
      do throws(HTTPClientError) {
        session = try Self.handshake(
          descriptor: descriptor, origin: origin, context: tlsContext, until: deadline)
      } catch {
        _ = close(descriptor)
        throw error
      }
    }
    self.origin = origin
    self.descriptor = descriptor
    self.tls = session
    storage = .allocate(byteCount: Self.capacity, alignment: 16)
  }

  deinit {
    // No close_notify (SSL_shutdown): HTTP framing, not TLS, ends each answer, and writing to
    // a peer that has closed would raise SIGPIPE on whichever thread drops the connection.
    if let tls { SSL_free(tls) }
    _ = close(descriptor)
    storage.deallocate()
  }

  /// Whether the idle connection has seen the server's close, a reset or stray bytes.
  var hasPendingInput: Bool { start < end || Readiness.hasPendingInput(descriptor) }

  // MARK: - Reading

  /// The unread bytes.
  var unread: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: storage + start, count: end - start)
  }

  /// Marks `count` unread bytes as consumed.
  func consume(_ count: Int) {
    start += count
    if start == end {
      start = 0
      end = 0
    }
  }

  /// Reads more bytes into the buffer, waiting until some arrive.
  ///
  /// - Returns: `false` at the end of the stream.
  /// - Throws: ``HTTPClientError`` of kind `timedOut` or `connectionClosed`.
  func fill(until deadline: ContinuousClock.Instant) throws(HTTPClientError) -> Bool {
    if start > 0 && end == Self.capacity {
      // Move what is unread to the front; the buffer is full only for long lines.
      storage.copyMemory(from: storage + start, byteCount: end - start)
      end -= start
      start = 0
    }
    guard end < Self.capacity else {
      throw HTTPClientError(
        .malformedResponse,
        "\(origin) sent a header line or chunk line longer than \(Self.capacity) bytes",
        receivedAnswerBytes: true)
    }
    let count = try receive(
      into: UnsafeMutableRawBufferPointer(start: storage + end, count: Self.capacity - end),
      until: deadline)
    end += count
    return count > 0
  }

  private func receive(
    into target: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant
  ) throws(HTTPClientError) -> Int {
    while true {
      if let tls {
        ERR_clear_error()
        let count = SSL_read(tls, target.baseAddress, Int32(clamping: target.count))
        if count > 0 { return Int(count) }
        switch SSL_get_error(tls, count) {
        case SSL_ERROR_ZERO_RETURN: return 0
        case SSL_ERROR_WANT_READ: try wait(Int32(POLLIN), until: deadline)
        case SSL_ERROR_WANT_WRITE: try wait(Int32(POLLOUT), until: deadline)
        case SSL_ERROR_SYSCALL where errno == 0: return 0
        case SSL_ERROR_SYSCALL:
          throw closed("reading failed: \(SocketConnector.describe(errno))")
        default: throw closed("TLS failed while reading: \(TLSContext.lastErrorText())")
        }
      } else {
        let count = recv(descriptor, target.baseAddress, target.count, 0)
        if count >= 0 { return count }
        let error = errno
        if error == EAGAIN || error == EWOULDBLOCK {
          try wait(Int32(POLLIN), until: deadline)
        } else if error != EINTR {
          throw closed("reading failed: \(SocketConnector.describe(error))")
        }
      }
    }
  }

  // MARK: - Writing

  /// Writes all of `bytes`.
  ///
  /// - Throws: ``HTTPClientError`` of kind `timedOut` or `connectionClosed`.
  func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(HTTPClientError) {
    let result = bytes.withUnsafeBytes { bytes in
      Result { () throws(HTTPClientError) in try write(bytes, until: deadline) }
    }
    try result.get()
  }

  /// Writes all of `bytes`.
  ///
  /// - Throws: ``HTTPClientError`` of kind `timedOut` or `connectionClosed`.
  func write(_ bytes: UnsafeRawBufferPointer, until deadline: ContinuousClock.Instant)
    throws(HTTPClientError)
  {
    var offset = 0
    while offset < bytes.count {
      let remaining = UnsafeRawBufferPointer(rebasing: bytes[offset...])
      if let tls {
        ERR_clear_error()
        let count = SSL_write(tls, remaining.baseAddress, Int32(clamping: remaining.count))
        if count > 0 {
          offset += Int(count)
          continue
        }
        switch SSL_get_error(tls, count) {
        case SSL_ERROR_WANT_READ: try wait(Int32(POLLIN), until: deadline)
        case SSL_ERROR_WANT_WRITE: try wait(Int32(POLLOUT), until: deadline)
        case SSL_ERROR_SYSCALL:
          throw closed("writing failed: \(SocketConnector.describe(errno))")
        default: throw closed("TLS failed while writing: \(TLSContext.lastErrorText())")
        }
      } else {
        // MSG_NOSIGNAL: a closed peer is an error to report, not a SIGPIPE to die of.
        let count = send(descriptor, remaining.baseAddress, remaining.count, Int32(MSG_NOSIGNAL))
        if count >= 0 {
          offset += count
          continue
        }
        let error = errno
        if error == EAGAIN || error == EWOULDBLOCK {
          try wait(Int32(POLLOUT), until: deadline)
        } else if error != EINTR {
          throw closed("writing failed: \(SocketConnector.describe(error))")
        }
      }
    }
  }

  // MARK: - Support

  private func wait(_ events: Int32, until deadline: ContinuousClock.Instant)
    throws(HTTPClientError)
  {
    switch Readiness.wait(for: descriptor, events: events, until: deadline) {
    case .ready: return
    case .timedOut:
      throw HTTPClientError(.timedOut, "\(origin) did not answer before the timeout")
    case .failed(let error):
      throw closed("poll failed: \(SocketConnector.describe(error))")
    }
  }

  private func closed(_ reason: String) -> HTTPClientError {
    HTTPClientError(.connectionClosed, "the connection to \(origin) failed: \(reason)")
  }

  /// The TLS handshake: SNI and host-name verification for names, address verification for
  /// literals, and the chain against the context's trust.
  private static func handshake(
    descriptor: Int32, origin: Origin, context: TLSContext, until deadline: ContinuousClock.Instant
  ) throws(HTTPClientError) -> OpaquePointer {
    guard let session = SSL_new(context.context) else {
      throw HTTPClientError(
        .tlsFailure, "OpenSSL cannot create a TLS session (\(TLSContext.lastErrorText()))")
    }
    var address = in6_addr()
    let isAddressLiteral =
      inet_pton(AF_INET, origin.host, &address) == 1
      || inet_pton(AF_INET6, origin.host, &address) == 1
    let configured: Bool
    if isAddressLiteral {
      // RFC 6066 forbids an address as the server name; the certificate must name the address.
      configured = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(session), origin.host) == 1
    } else {
      configured =
        SSL_set1_host(session, origin.host) == 1
        && receipt_migrate_SSL_set_server_name(session, origin.host) == 1
    }
    guard configured, SSL_set_fd(session, descriptor) == 1 else {
      SSL_free(session)
      throw HTTPClientError(
        .tlsFailure,
        "cannot prepare TLS for \(origin.host) (\(TLSContext.lastErrorText()))")
    }
    while true {
      ERR_clear_error()
      let result = SSL_connect(session)
      if result == 1 { return session }
      let events: Int32
      switch SSL_get_error(session, result) {
      case SSL_ERROR_WANT_READ: events = Int32(POLLIN)
      case SSL_ERROR_WANT_WRITE: events = Int32(POLLOUT)
      default:
        let failure = handshakeFailure(session, origin: origin)
        SSL_free(session)
        throw failure
      }
      switch Readiness.wait(for: descriptor, events: events, until: deadline) {
      case .ready: continue
      case .timedOut:
        SSL_free(session)
        throw HTTPClientError(.timedOut, "the TLS handshake with \(origin) took too long")
      case .failed(let error):
        SSL_free(session)
        throw HTTPClientError(
          .tlsFailure,
          "the TLS handshake with \(origin) failed: poll: "
            + SocketConnector.describe(error))
      }
    }
  }

  /// Why a handshake failed, certificate problems named as such.
  private static func handshakeFailure(_ session: OpaquePointer, origin: Origin) -> HTTPClientError
  {
    let verification = SSL_get_verify_result(session)
    if verification != Int(X509_V_OK) {
      let reason = String(cString: X509_verify_cert_error_string(verification))
      ERR_clear_error()
      let advice =
        verification == Int(X509_V_ERR_HOSTNAME_MISMATCH)
          || verification == Int(X509_V_ERR_IP_ADDRESS_MISMATCH)
        ? "the certificate is for another host; check the URL"
        : "the certificate is not trusted by this machine's trust store; check the URL, the "
          + "machine's clock and the ca-certificates package"
      return HTTPClientError(
        .certificateRejected,
        "TLS certificate verification failed for \(origin): \(reason) (X.509 error "
          + "\(verification)); \(advice)")
    }
    return HTTPClientError(
      .tlsFailure, "the TLS handshake with \(origin) failed: \(TLSContext.lastErrorText())")
  }
}
