import Glibc

/// The open connections and the threads that have finished, kept under the server's mutex.
///
/// Descriptor safety rests on one rule: a connection thread removes its entry (under the mutex)
/// before it closes its descriptor, and other threads only call `shutdown` on a descriptor while
/// holding the mutex with the entry present. So no thread ever shuts down a descriptor number that
/// has been closed and reused.
struct ConnectionRegistry {
  struct Entry {
    let descriptor: Int32
    /// The serving thread, recorded by the thread itself when it starts.
    var thread: pthread_t?
    /// When the connection last became idle, as a sequence number; `nil` while a request is in
    /// progress.
    var idleSince: UInt64?
    var isClosedForCapacity = false
  }

  private(set) var entries: [UInt64: Entry] = [:]
  private(set) var finishedThreads: [pthread_t] = []
  /// Whether the acceptor is waiting for a slot or an idle connection and must be woken.
  var acceptorIsParked = false
  private var nextIdentifier: UInt64 = 0
  private var idleSequence: UInt64 = 0

  var count: Int { entries.count }

  var idleCount: Int { entries.values.count { $0.idleSince != nil } }

  /// Adds a newly accepted connection, before its thread starts.
  mutating func register(descriptor: Int32) -> UInt64 {
    nextIdentifier += 1
    entries[nextIdentifier] = Entry(descriptor: descriptor)
    return nextIdentifier
  }

  /// Removes a connection whose thread could not be started.
  mutating func unregister(_ identifier: UInt64) {
    entries[identifier] = nil
  }

  mutating func recordThread(_ thread: pthread_t, for identifier: UInt64) {
    entries[identifier]?.thread = thread
  }

  /// Marks a connection idle between requests.
  ///
  /// - Returns: Whether the acceptor is parked and must be woken to consider closing it.
  mutating func markIdle(_ identifier: UInt64) -> Bool {
    idleSequence += 1
    entries[identifier]?.idleSince = idleSequence
    return unparkAcceptor()
  }

  /// Marks a connection busy with a request.
  ///
  /// - Returns: `false` when the connection was closed for capacity while idle and must end.
  mutating func markBusy(_ identifier: UInt64) -> Bool {
    entries[identifier]?.idleSince = nil
    return entries[identifier]?.isClosedForCapacity == false
  }

  /// Removes a finished connection and keeps its thread for joining.
  mutating func finish(_ identifier: UInt64, thread: pthread_t) {
    entries[identifier] = nil
    finishedThreads.append(thread)
    _ = unparkAcceptor()
  }

  mutating func takeFinishedThreads() -> [pthread_t] {
    defer { finishedThreads.removeAll() }
    return finishedThreads
  }

  /// Shuts down the connection that has been idle longest, if there is an idle one and no other
  /// connection is already closing for capacity.
  ///
  /// One at a time: the acceptor may wake again before the closing connection has left the
  /// registry, and must not take that for a reason to close a second one.
  ///
  /// - Returns: Whether a connection was shut down.
  mutating func shutDownLongestIdle() -> Bool {
    guard !entries.values.contains(where: \.isClosedForCapacity) else { return false }
    let candidate = entries.filter { !$0.value.isClosedForCapacity }
      .compactMap { entry in entry.value.idleSince.map { (entry.key, $0) } }
      .min { $0.1 < $1.1 }
    guard let (identifier, _) = candidate, let descriptor = entries[identifier]?.descriptor else {
      return false
    }
    entries[identifier]?.isClosedForCapacity = true
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
    return true
  }

  /// Shuts down every open connection, waking any thread blocked on its socket.
  func shutDownAll() {
    for entry in entries.values {
      _ = shutdown(entry.descriptor, Int32(SHUT_RDWR))
    }
  }

  func isServing(on thread: pthread_t) -> Bool {
    entries.values.contains { $0.thread.map { pthread_equal($0, thread) != 0 } ?? false }
  }

  private mutating func unparkAcceptor() -> Bool {
    defer { acceptorIsParked = false }
    return acceptorIsParked
  }
}
