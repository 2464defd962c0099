import Glibc

/// Serves one accepted connection, from its first request to its close, on its own thread.
///
/// Not `Sendable`, and it need not be: the acceptor creates it and hands it (as a `sending`
/// closure capture) to the one thread that runs it; no other thread ever touches it.
final class Connection {
  private enum Ending {
    /// Close at once: nothing was answered, or the client has gone.
    case close
    /// Half-close and drain before closing, so the response just written survives.
    case lingeringClose
  }

  /// Why reading a request stopped early.
  private enum ReadFailure: Error {
    /// The request is invalid and gets an error response.
    case rejected(RequestRejection)
    /// The client closed, went silent past the deadline, or the socket failed.
    case ended
  }

  /// The longest a lingering close waits for the client to close its side.
  private static let maximumLinger = Duration.seconds(2)
  /// The most input a lingering close discards before giving up on a client that keeps sending.
  private static let maximumLingerBytes = 1024 * 1024

  private let core: ServerCore
  private let configuration: HTTPServerConfiguration
  private let socket: Int32
  private let identifier: UInt64
  private let remoteAddress: SocketAddress
  private var buffer = ReadBuffer()

  init(core: ServerCore, socket: Int32, identifier: UInt64, remoteAddress: SocketAddress) {
    self.core = core
    self.configuration = core.configuration
    self.socket = socket
    self.identifier = identifier
    self.remoteAddress = remoteAddress
  }

  private var counters: StatisticsCounters { core.counters }

  /// Serves requests until the connection ends, then closes the socket.
  func run() {
    core.connectionDidStart(identifier)
    if serveRequests() == .lingeringClose {
      lingerBeforeClosing()
    }
    // Leave the registry before closing, so nobody shuts down a reused descriptor number.
    core.connectionDidFinish(identifier)
    _ = close(socket)
  }

  // MARK: - Request loop

  private func serveRequests() -> Ending {
    while true {
      if buffer.isEmpty {
        guard waitForNextRequest() else { return .close }
      }
      let startedAt = ContinuousClock.now
      let deadline = startedAt + configuration.readTimeout

      let head: RequestHead
      let body: [UInt8]
      do throws(ReadFailure) {
        head = try readHead(until: deadline)
      } catch {
        guard case .rejected(let rejection) = error else { return .close }
        return reject(rejection, head: nil, startedAt: startedAt)
      }
      do throws(ReadFailure) {
        body = try readBody(of: head, until: deadline)
      } catch {
        guard case .rejected(let rejection) = error else { return .close }
        return reject(rejection, head: head, startedAt: startedAt)
      }

      counters.requestsServed.add(1, ordering: .relaxed)
      let response = core.handler(
        HTTPRequest(
          method: head.method, path: head.path, queryItems: head.queryItems,
          version: head.version, headers: head.headers, body: body,
          remoteAddress: remoteAddress))
      let delivery = deliver(response, for: head)
      log(
        head: head, status: delivery.status, reachedHandler: true, outcome: delivery.outcome,
        requestBodyBytes: body.count, bytesSent: delivery.bytesSent, startedAt: startedAt)

      switch delivery.outcome {
      case .sent where delivery.keepAlive:
        buffer.releaseExcessCapacity()
      case .sent where !head.keepAlive && buffer.isEmpty:
        // The client asked for the close and may send nothing more (RFC 9112 §9.6), so there is
        // no input to drain and no reason to hold the connection open.
        return .close
      case .sent, .truncated:
        return .lingeringClose
      case .closedWithoutResponse, .failed:
        return .close
      }
    }
  }

  /// Waits, idle, for the first bytes of the next request.
  ///
  /// - Returns: `false` when the connection should close instead: the client closed it, it sat
  ///   idle past `idleTimeout`, the server is stopping, or it was closed to make room.
  private func waitForNextRequest() -> Bool {
    core.connectionIsIdle(identifier)
    var descriptors = [
      pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
      pollfd(fd: core.stoppingSignal.descriptor, events: Int16(POLLIN), revents: 0),
    ]
    let result = Poll.wait(&descriptors, until: .now + configuration.idleTimeout)
    guard core.connectionIsBusy(identifier) else { return false }
    switch result {
    case .ready where descriptors[0].revents != 0:
      // A request that arrived just as stop() began is still served, with Connection: close.
      break
    case .ready, .failed:
      return false
    case .timedOut:
      counters.idleTimeouts.add(1, ordering: .relaxed)
      return false
    }
    do throws(ReadFailure) {
      try receive(until: .now + configuration.readTimeout)
      return true
    } catch {
      return false
    }
  }

  // MARK: - Reading

  private func readHead(until deadline: ContinuousClock.Instant) throws(ReadFailure) -> RequestHead
  {
    let limit = configuration.maximumHeaderBytes
    var searchedUpTo = 0
    while true {
      if searchedUpTo == 0 { buffer.discardLeadingEmptyLines() }
      if let terminator = buffer.headTerminator(searchingFrom: searchedUpTo) {
        guard terminator + 4 <= limit else { throw .rejected(.headerTooLarge(limit: limit)) }
        let head = try buffer.withReadableBytes { bytes throws(ReadFailure) in
          do throws(RequestRejection) {
            return try RequestHeadParser.parse(UnsafeBufferPointer(rebasing: bytes[..<terminator]))
          } catch {
            throw .rejected(error)
          }
        }
        buffer.consume(terminator + 4)
        return head
      }
      guard buffer.count < limit else { throw .rejected(.headerTooLarge(limit: limit)) }
      searchedUpTo = max(0, buffer.count - 3)
      try receive(until: deadline)
    }
  }

  private func readBody(
    of head: RequestHead, until deadline: ContinuousClock.Instant
  ) throws(ReadFailure) -> [UInt8] {
    switch head.framing {
    case .none:
      return []
    case .contentLength(let length):
      guard length <= configuration.maximumBodyBytes else {
        throw .rejected(.bodyTooLarge(limit: configuration.maximumBodyBytes))
      }
      try sendContinueIfExpected(head)
      return try readBody(length: length, until: deadline)
    case .chunked:
      try sendContinueIfExpected(head)
      var decoder = ChunkedBodyDecoder(
        maximumBodyBytes: configuration.maximumBodyBytes,
        maximumTrailerBytes: configuration.maximumHeaderBytes)
      var body: [UInt8] = []
      while true {
        let consumed = try buffer.withReadableBytes { bytes throws(ReadFailure) in
          do throws(RequestRejection) {
            return try decoder.decode(bytes, into: &body)
          } catch {
            throw .rejected(error)
          }
        }
        buffer.consume(consumed)
        if decoder.isFinished { return body }
        try receive(until: deadline)
      }
    }
  }

  /// Reads a `Content-Length` body straight into its array, past the connection buffer.
  private func readBody(
    length: Int, until deadline: ContinuousClock.Instant
  ) throws(ReadFailure) -> [UInt8] {
    var failure: ReadFailure?
    let body = [UInt8](unsafeUninitializedCapacity: length) { destination, initialized in
      initialized = buffer.moveBytes(into: destination)
      while initialized < length {
        let received = recv(
          socket, destination.baseAddress.map { $0 + initialized }, length - initialized, 0)
        if received > 0 {
          initialized += received
          counters.bytesReceived.add(received, ordering: .relaxed)
        } else if received < 0, errno == EINTR {
          continue
        } else if received < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          do throws(ReadFailure) {
            try waitUntilReadable(until: deadline)
          } catch {
            failure = error
            return
          }
        } else {
          failure = .ended
          return
        }
      }
    }
    if let failure { throw failure }
    return body
  }

  /// Answers `Expect: 100-continue` unless the body has started arriving anyway.
  private func sendContinueIfExpected(_ head: RequestHead) throws(ReadFailure) {
    guard head.expectsContinue, buffer.isEmpty else { return }
    let continueResponse = ResponseSerializer.continueResponse
    guard send(continueResponse) == continueResponse.count else { throw .ended }
  }

  /// Receives more bytes into the buffer, waiting for them until `deadline`.
  private func receive(until deadline: ContinuousClock.Instant) throws(ReadFailure) {
    while true {
      let received = buffer.receive(from: socket)
      if received > 0 {
        counters.bytesReceived.add(received, ordering: .relaxed)
        return
      }
      if received == 0 { throw .ended }
      switch errno {
      case EINTR:
        continue
      case EAGAIN, EWOULDBLOCK:
        try waitUntilReadable(until: deadline)
      default:
        throw .ended
      }
    }
  }

  private func waitUntilReadable(until deadline: ContinuousClock.Instant) throws(ReadFailure) {
    switch Poll.wait(for: socket, events: Int32(POLLIN), until: deadline) {
    case .ready:
      return
    case .timedOut:
      counters.readTimeouts.add(1, ordering: .relaxed)
      throw .ended
    case .failed:
      throw .ended
    }
  }

  // MARK: - Answering

  private struct Delivery {
    var outcome: HTTPResponseOutcome
    var status: HTTPStatus?
    var bytesSent: Int
    var keepAlive: Bool
  }

  /// Waits out the response's delay, then acts out its fault or sends it.
  private func deliver(_ original: HTTPResponse, for head: RequestHead) -> Delivery {
    if original.delay > .zero, core.forcedSignal.wait(until: .now + original.delay) {
      return Delivery(outcome: .failed, status: nil, bytesSent: 0, keepAlive: false)
    }
    let response = ResponseSerializer.validated(original)
    var bodyPrefixLength: Int?
    switch original.fault {
    case .closeWithoutResponse:
      counters.faultsClosedWithoutResponse.add(1, ordering: .relaxed)
      return Delivery(outcome: .closedWithoutResponse, status: nil, bytesSent: 0, keepAlive: false)
    case .truncateBody(let afterBytes):
      counters.faultsTruncatedBody.add(1, ordering: .relaxed)
      bodyPrefixLength = max(0, min(afterBytes, response.body.count - 1))
    case nil:
      break
    }
    // Decided only now, after any delay, so a stop() that began meanwhile is honoured.
    let keepAlive =
      head.keepAlive && bodyPrefixLength == nil && !core.isStopping
      && !ResponseSerializer.asksToClose(response)
    let connectionField: ResponseSerializer.ConnectionField =
      bodyPrefixLength != nil
      ? .none
      : !keepAlive
        ? .close
        : head.version.keepsConnectionsAliveByDefault ? .none : .keepAlive
    let bytes = ResponseSerializer.serialize(
      response, requestMethod: head.method, connection: connectionField,
      bodyPrefixLength: bodyPrefixLength)
    let sent = send(bytes)
    guard sent == bytes.count else {
      return Delivery(outcome: .failed, status: response.status, bytesSent: sent, keepAlive: false)
    }
    if bodyPrefixLength != nil {
      return Delivery(
        outcome: .truncated, status: response.status, bytesSent: sent, keepAlive: false)
    }
    counters.recordResponse(response.status)
    return Delivery(outcome: .sent, status: response.status, bytesSent: sent, keepAlive: keepAlive)
  }

  /// Answers a request the server refuses, then closes.
  private func reject(
    _ rejection: RequestRejection, head: RequestHead?, startedAt: ContinuousClock.Instant
  ) -> Ending {
    counters.requestsRejected.add(1, ordering: .relaxed)
    let response = HTTPResponse.text(rejection.reason + "\n", status: rejection.status)
    let bytes = ResponseSerializer.serialize(
      response, requestMethod: head?.method ?? .get, connection: .close)
    let sent = send(bytes)
    let complete = sent == bytes.count
    if complete { counters.recordResponse(rejection.status) }
    log(
      head: head, status: rejection.status, reachedHandler: false,
      outcome: complete ? .sent : .failed, requestBodyBytes: 0, bytesSent: sent,
      startedAt: startedAt)
    return complete ? .lingeringClose : .close
  }

  /// Writes all of `bytes`, waiting for the client to read until `writeTimeout`.
  ///
  /// - Returns: How many bytes were written; fewer than `bytes.count` when writing failed.
  private func send(_ bytes: [UInt8]) -> Int {
    let deadline = ContinuousClock.now + configuration.writeTimeout
    var written = 0
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      while written < raw.count {
        // MSG_NOSIGNAL: a client that has gone must cost an EPIPE, not a SIGPIPE that kills the
        // whole process.
        let result = Glibc.send(socket, base + written, raw.count - written, Int32(MSG_NOSIGNAL))
        if result > 0 {
          written += result
          continue
        }
        guard result < 0 else { return }
        switch errno {
        case EINTR:
          continue
        case EAGAIN, EWOULDBLOCK:
          switch Poll.wait(for: socket, events: Int32(POLLOUT), until: deadline) {
          case .ready:
            continue
          case .timedOut:
            counters.writeTimeouts.add(1, ordering: .relaxed)
            return
          case .failed:
            return
          }
        default:
          return
        }
      }
    }
    counters.bytesSent.add(written, ordering: .relaxed)
    return written
  }

  // MARK: - Closing

  /// Sends FIN, then reads and discards input until the client closes its side too.
  ///
  /// Closing a socket that still has unread input makes the kernel send RST, and a client that
  /// receives RST may throw away the response it has not read yet — exactly the error response or
  /// final answer that explains why the connection is closing.
  private func lingerBeforeClosing() {
    guard shutdown(socket, Int32(SHUT_WR)) == 0 else { return }
    let deadline = ContinuousClock.now + min(configuration.readTimeout, Connection.maximumLinger)
    var discarded = 0
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { scratch in
      while discarded < Connection.maximumLingerBytes {
        let received = recv(socket, scratch.baseAddress, scratch.count, 0)
        if received > 0 {
          discarded += received
        } else if received < 0, errno == EINTR {
          continue
        } else if received < 0, errno == EAGAIN || errno == EWOULDBLOCK,
          Poll.wait(for: socket, events: Int32(POLLIN), until: deadline) == .ready
        {
          continue
        } else {
          return
        }
      }
    }
  }

  // MARK: - Logging

  private func log(
    head: RequestHead?, status: HTTPStatus?, reachedHandler: Bool,
    outcome: HTTPResponseOutcome, requestBodyBytes: Int, bytesSent: Int,
    startedAt: ContinuousClock.Instant
  ) {
    guard let requestLog = configuration.requestLog else { return }
    requestLog(
      HTTPRequestLogEntry(
        remoteAddress: remoteAddress, method: head?.method, target: head?.target, status: status,
        reachedHandler: reachedHandler, outcome: outcome, requestBodyBytes: requestBodyBytes,
        responseBytesSent: bytesSent, duration: startedAt.duration(to: .now)))
  }
}
