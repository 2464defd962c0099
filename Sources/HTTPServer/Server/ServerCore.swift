import Glibc
import Synchronization

/// The state shared by an `HTTPServer`'s acceptor thread, its connection threads and `stop()`.
///
/// Separate from `HTTPServer` so that the threads keep this alive, not the public object, whose
/// `deinit` can then stop a server its owner forgot to stop.
final class ServerCore: Sendable {
  let configuration: HTTPServerConfiguration
  let handler: HTTPServer.Handler
  let listener: Int32
  let counters = StatisticsCounters()
  let registry = Mutex(ConnectionRegistry())
  /// Fired once when `stop()` begins; idle connections and the acceptor wait on it.
  let stoppingSignal: WakeSignal
  /// Fired once when `stop()`'s grace period runs out; response delays wait on it.
  let forcedSignal: WakeSignal
  /// Fired whenever a connection ends or an idle connection may be closed for capacity; the
  /// acceptor (and, once it has ended, `stop()`) resets it after waking.
  let wakeSignal: WakeSignal
  private let stopping = Atomic<Bool>(false)

  /// How long the acceptor backs off after `accept` fails for lack of resources, instead of
  /// spinning on a listening socket that stays readable.
  private static let acceptRetryDelay = Duration.milliseconds(50)

  init(
    configuration: HTTPServerConfiguration, handler: @escaping HTTPServer.Handler, listener: Int32
  ) throws(HTTPServerError) {
    var signals: [WakeSignal] = []
    do throws(HTTPServerError) {
      while signals.count < 3 { signals.append(try WakeSignal()) }
    } catch {
      for signal in signals { signal.close() }
      throw error
    }
    self.configuration = configuration
    self.handler = handler
    self.listener = listener
    self.stoppingSignal = signals[0]
    self.forcedSignal = signals[1]
    self.wakeSignal = signals[2]
  }

  var isStopping: Bool { stopping.load(ordering: .acquiring) }

  var statistics: HTTPServerStatistics {
    counters.snapshot(connectionsOpen: registry.withLock { $0.count })
  }

  // MARK: - Accepting

  /// The acceptor thread's loop: accept while below capacity, until `stop()` begins.
  func acceptConnections() {
    var backingOff = false
    while true {
      joinFinishedThreads()
      let watchListener =
        !backingOff
        && registry.withLock { registry in
          if registry.count < configuration.maximumConnections {
            registry.acceptorIsParked = false
            return true
          }
          return !registry.acceptorIsParked
        }
      var descriptors = [
        pollfd(fd: stoppingSignal.descriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeSignal.descriptor, events: Int16(POLLIN), revents: 0),
      ]
      if watchListener {
        descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
      }
      let deadline = backingOff ? ContinuousClock.now + Self.acceptRetryDelay : nil
      backingOff = false
      switch Poll.wait(&descriptors, until: deadline) {
      case .ready: break
      case .timedOut: continue
      case .failed:
        backingOff = true
        continue
      }
      if descriptors[0].revents != 0 { return }
      if descriptors[1].revents != 0 { wakeSignal.reset() }
      if watchListener && descriptors[2].revents != 0 {
        backingOff = !acceptOne()
      }
    }
  }

  /// Accepts one pending connection and starts its thread, or, at capacity, makes room.
  ///
  /// - Returns: `false` when accepting failed for lack of resources and the acceptor should back
  ///   off before trying again.
  private func acceptOne() -> Bool {
    let atCapacity = registry.withLock { registry in
      guard registry.count >= configuration.maximumConnections else { return false }
      if registry.shutDownLongestIdle() {
        counters.connectionsClosedForCapacity.add(1, ordering: .relaxed)
      }
      // Woken again when a connection ends or goes idle.
      registry.acceptorIsParked = true
      return true
    }
    guard !atCapacity else { return true }

    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let descriptor = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
    }
    guard descriptor >= 0 else {
      switch errno {
      case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO:
        return true
      default:
        counters.acceptFailures.add(1, ordering: .relaxed)
        return false
      }
    }
    guard Socket.configureAccepted(descriptor) else {
      _ = close(descriptor)
      counters.acceptFailures.add(1, ordering: .relaxed)
      return true
    }
    counters.connectionsAccepted.add(1, ordering: .relaxed)
    let identifier = registry.withLock { $0.register(descriptor: descriptor) }
    let connection = Connection(
      core: self, socket: descriptor, identifier: identifier,
      remoteAddress: Socket.socketAddress(address))
    do {
      _ = try NativeThread.spawn(name: "http-connection") { connection.run() }
      return true
    } catch {
      registry.withLock { $0.unregister(identifier) }
      _ = close(descriptor)
      counters.acceptFailures.add(1, ordering: .relaxed)
      return false
    }
  }

  // MARK: - Connection bookkeeping

  func connectionDidStart(_ identifier: UInt64) {
    registry.withLock { $0.recordThread(pthread_self(), for: identifier) }
  }

  func connectionIsIdle(_ identifier: UInt64) {
    if registry.withLock({ $0.markIdle(identifier) }) {
      wakeSignal.fire()
    }
  }

  /// - Returns: `false` when the connection was closed for capacity and must end.
  func connectionIsBusy(_ identifier: UInt64) -> Bool {
    registry.withLock { $0.markBusy(identifier) }
  }

  /// Called by a connection thread as its last step before closing its descriptor.
  func connectionDidFinish(_ identifier: UInt64) {
    registry.withLock { $0.finish(identifier, thread: pthread_self()) }
    wakeSignal.fire()
  }

  func joinFinishedThreads() {
    for thread in registry.withLock({ $0.takeFinishedThreads() }) {
      NativeThread.join(thread)
    }
  }

  func isServerThread(_ thread: pthread_t) -> Bool {
    registry.withLock { $0.isServing(on: thread) }
  }

  // MARK: - Stopping

  /// Stops the acceptor and tells idle connections to close.
  func beginStopping() {
    stopping.store(true, ordering: .releasing)
    stoppingSignal.fire()
  }

  /// Ends the grace period: cuts delays short and shuts down every remaining socket.
  func forceConnectionsClosed() {
    forcedSignal.fire()
    registry.withLock { $0.shutDownAll() }
  }

  /// Waits until every connection thread has finished, or the deadline passes.
  ///
  /// Only once the acceptor has ended: it is then the only reader of `wakeSignal`.
  ///
  /// - Returns: Whether every connection finished.
  func waitForConnections(until deadline: ContinuousClock.Instant?) -> Bool {
    while registry.withLock({ $0.count }) > 0 {
      guard wakeSignal.wait(until: deadline) else { return false }
      wakeSignal.reset()
    }
    return true
  }

  /// Closes the listening socket, once the acceptor has ended, so that new connection attempts
  /// are refused instead of waiting in the backlog.
  func closeListener() {
    _ = close(listener)
  }

  /// Closes the signals, once every thread has been joined.
  func closeSignals() {
    stoppingSignal.close()
    forcedSignal.close()
    wakeSignal.close()
  }
}
