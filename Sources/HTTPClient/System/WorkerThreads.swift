import Foundation
import Glibc

/// The client's I/O threads: requests wait in a queue, each thread takes one, runs it to the
/// end with blocking waits, and takes the next. Threads start on demand up to a maximum and end
/// after a while without work.
///
/// Blocking waits belong here rather than in Swift's cooperative pool, which has one thread per
/// core and would stall every other task while a request waits for the network. A thread per
/// request in flight costs one wake-up per request instead of the event hand-offs of an event
/// loop, which on two cores is what decides the CPU per request.
///
/// `@unchecked Sendable`: every stored `var` is read and written only while `condition` is
/// locked; `run` is immutable and itself `Sendable`.
final class WorkerThreads: @unchecked Sendable {
  private let condition = NSCondition()
  private var queue: [PendingRequest] = []
  private var queueHead = 0
  private var threads = 0
  private var idleThreads = 0
  /// Idle threads signalled and not yet awake, so that one wake-up is not counted twice.
  private var wakeupsInFlight = 0
  private var isShutDown = false

  private let maximumThreads: Int
  private let idleLifetime: TimeInterval
  private let run: @Sendable (PendingRequest) -> Void

  /// Threads that call `run` for each request submitted.
  ///
  /// - Parameters:
  ///   - maximumThreads: The most threads, and so requests in progress, at once.
  ///   - idleLifetime: How long a thread waits for work before it ends.
  ///   - run: Runs one request to its end; called on a worker thread.
  init(
    maximumThreads: Int, idleLifetime: Duration, run: @escaping @Sendable (PendingRequest) -> Void
  ) {
    self.maximumThreads = max(1, maximumThreads)
    self.idleLifetime =
      Double(idleLifetime.components.seconds) + Double(idleLifetime.components.attoseconds) / 1e18
    self.run = run
  }

  /// Queues `request` and wakes or starts a thread for it.
  func submit(_ request: PendingRequest) {
    condition.lock()
    guard !isShutDown else {
      condition.unlock()
      request.abandon(HTTPClientError(.shutDown, "the HTTP client was shut down"))
      return
    }
    queue.append(request)
    var startThread = false
    if idleThreads > wakeupsInFlight {
      wakeupsInFlight += 1
      condition.signal()
    } else if threads < maximumThreads {
      threads += 1
      startThread = true
    }
    condition.unlock()
    if startThread { startWorker() }
  }

  /// Stops taking requests: queued ones fail with ``HTTPClientError/Kind/shutDown``, running
  /// ones finish, and every thread ends once idle.
  func shutDown() {
    condition.lock()
    isShutDown = true
    let abandoned = Array(queue[queueHead...])
    queue = []
    queueHead = 0
    condition.broadcast()
    condition.unlock()
    for request in abandoned {
      request.abandon(HTTPClientError(.shutDown, "the HTTP client was shut down"))
    }
  }

  private func startWorker() {
    let thread = Thread { [self] in
      Self.blockBrokenPipeSignal()
      work()
    }
    // Deep enough for OpenSSL's handshake; the default 8 MB would be mostly unused.
    thread.stackSize = 512 << 10
    thread.name = "http-client"
    thread.start()
  }

  private func work() {
    condition.lock()
    while true {
      if queueHead < queue.count {
        let request = queue[queueHead]
        queueHead += 1
        if queueHead == queue.count || queueHead >= 1024 {
          queue.removeFirst(queueHead)
          queueHead = 0
        }
        condition.unlock()
        if request.start() { run(request) }
        condition.lock()
        continue
      }
      if isShutDown { break }
      idleThreads += 1
      let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleLifetime))
      idleThreads -= 1
      if wakeupsInFlight > 0 { wakeupsInFlight -= 1 }
      if !signalled && queueHead == queue.count { break }
    }
    threads -= 1
    condition.unlock()
  }

  /// OpenSSL writes to its socket with `write(2)`, which raises SIGPIPE when the server has
  /// closed; blocked on this thread, the signal stays pending instead of ending the process, and
  /// the write fails with EPIPE, which is reported. Other threads keep their disposition.
  private static func blockBrokenPipeSignal() {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
  }
}
