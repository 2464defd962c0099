import Dispatch
import Foundation
import Glibc
import Synchronization

/// A small HTTP/1.1 load generator for loopback benchmarks: one thread per connection, each
/// sending GET requests on a blocking keep-alive socket and reading each answer whole (by its
/// `Content-Length`) before sending the next.
///
/// It is a measuring instrument, like `wrk`, not an API client: it neither verifies nor decodes
/// what it reads, so that the machine's time goes to the server under test.
struct LoopbackLoadGenerator {
  /// One kind of request, such as a history call.
  struct Target: Sendable {
    /// The name figures are reported under.
    var label: String
    /// The paths to request, in turn.
    var paths: [String]
  }

  /// What the connections did.
  struct Outcome: Sendable {
    /// Request durations in nanoseconds, by target label.
    var latencies: [String: [Int64]] = [:]
    /// Answers by status.
    var statuses: [Int: Int] = [:]
    /// Body bytes read, by target label.
    var bodyBytes: [String: Int] = [:]
    /// Requests that failed on the socket.
    var failures = 0
    /// From the start signal to the last connection's end.
    var elapsed: Duration = .zero
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let port: Int
  let authorization: String
  let connections: Int

  /// How long the connections run.
  enum Plan: Sendable {
    /// Each connection cycles through all requests until the time is up.
    case timed(Duration)
    /// Every request is sent once, the connections sharing them out.
    case eachRequestOnce
  }

  /// Runs the connections; the targets' requests are interleaved (one of each target in turn)
  /// and each connection starts at its own place in that list.
  func run(targets: [Target], plan: Plan) throws -> Outcome {
    // The requests are made before the clock starts, so the run times only the exchanges.
    var work: [(label: String, request: [UInt8])] = []
    for index in 0..<(targets.map(\.paths.count).max() ?? 0) {
      for target in targets where index < target.paths.count {
        let head =
          "GET \(target.paths[index]) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: \(authorization)\r\nAccept: application/json\r\n\r\n"
        work.append((target.label, Array(head.utf8)))
      }
    }
    guard !work.isEmpty else { return Outcome() }
    let sockets = try (0..<connections).map { _ in try Self.connect(port: port) }
    defer { for socket in sockets { close(socket) } }
    let merged = Mutex(Outcome())
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    let deadline = Mutex<ContinuousClock.Instant?>(nil)
    let connections = connections
    for (index, socket) in sockets.enumerated() {
      finished.enter()
      let thread = Thread { [work] in
        start.wait()
        let end = deadline.withLock { $0 } ?? .now
        var local = Outcome()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var cursor = index * (work.count / connections)
        var sent = 0
        requests: while true {
          switch plan {
          case .timed:
            guard ContinuousClock.now < end else { break requests }
          case .eachRequestOnce:
            cursor = index + sent * connections
            guard cursor < work.count else { break requests }
          }
          let (label, request) = work[cursor % work.count]
          cursor += 1
          sent += 1
          let began = ContinuousClock.now
          guard Self.send(request, on: socket),
            let (status, bodyLength) = Self.readResponse(from: socket, into: &buffer)
          else {
            local.failures += 1
            break requests
          }
          let elapsed = began.duration(to: .now)
          local.latencies[label, default: []].append(
            elapsed.components.seconds * 1_000_000_000
              + elapsed.components.attoseconds / 1_000_000_000)
          local.statuses[status, default: 0] += 1
          local.bodyBytes[label, default: 0] += bodyLength
        }
        merged.withLock { outcome in
          outcome.latencies.merge(local.latencies, uniquingKeysWith: +)
          outcome.statuses.merge(local.statuses, uniquingKeysWith: +)
          outcome.bodyBytes.merge(local.bodyBytes, uniquingKeysWith: +)
          outcome.failures += local.failures
        }
        finished.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    let began = ContinuousClock.now
    if case .timed(let duration) = plan { deadline.withLock { $0 = began + duration } }
    for _ in sockets { start.signal() }
    finished.wait()
    var outcome = merged.withLock { $0 }
    outcome.elapsed = began.duration(to: .now)
    return outcome
  }

  // MARK: - Sockets

  private static func connect(port: Int) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
    var noDelay: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let error = errno
      close(descriptor)
      throw Failure(description: "connect() to 127.0.0.1:\(port) failed: errno \(error)")
    }
    return descriptor
  }

  private static func send(_ bytes: [UInt8], on socket: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        Glibc.send(
          socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset,
          Int32(MSG_NOSIGNAL))
      }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Reads one response; returns its status and body length, or `nil` if the connection failed
  /// or the response cannot be framed.
  private static func readResponse(from socket: Int32, into buffer: inout [UInt8]) -> (Int, Int)? {
    var filled = 0
    var headerEnd: Int?
    var contentLength = 0
    while true {
      if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
      // Through the whole array's buffer: a mutable slice of it would be copied on every call.
      let received = buffer.withUnsafeMutableBytes { bytes in
        recv(socket, bytes.baseAddress.map { $0 + filled }, bytes.count - filled, 0)
      }
      guard received > 0 else { return nil }
      filled += received
      if headerEnd == nil, let end = Self.headerEnd(buffer, filled) {
        headerEnd = end
        contentLength = Self.contentLength(buffer[..<end]) ?? 0
      }
      if let headerEnd, filled >= headerEnd + contentLength {
        // "HTTP/1.1 200 OK": the status is bytes 9 to 11.
        guard headerEnd > 12 else { return nil }
        let digits = buffer[9..<12].reduce(0) { $0 * 10 + Int($1) - 48 }
        return (digits, contentLength)
      }
    }
  }

  private static func headerEnd(_ buffer: [UInt8], _ filled: Int) -> Int? {
    guard filled >= 4 else { return nil }
    for index in 3..<filled
    where buffer[index] == 10 && buffer[index - 1] == 13 && buffer[index - 2] == 10
      && buffer[index - 3] == 13
    {
      return index + 1
    }
    return nil
  }

  private static func contentLength(_ head: ArraySlice<UInt8>) -> Int? {
    let text = String(decoding: head, as: UTF8.self).lowercased()
    guard let range = text.range(of: "\r\ncontent-length:") else { return nil }
    let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
    return Int(digits)
  }
}
