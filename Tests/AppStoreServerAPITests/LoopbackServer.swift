import Foundation
import Glibc
import Synchronization

/// A one-connection HTTP server on 127.0.0.1 for testing the real transport: it accepts one
/// connection on a thread of its own, reads the request head, writes a canned answer and closes.
final class LoopbackServer: Sendable {
  let port: UInt16
  private let socket: Int32
  private let received = Mutex<String?>(nil)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts listening; `answer` is written verbatim after the request head arrives.
  init(answer: [UInt8]) throws {
    let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 1) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(listener, $0, &length)
      }
    }
    port = UInt16(bigEndian: address.sin_port)
    socket = listener
    let thread = Thread { [self] in serveOnce(answer: answer) }
    thread.start()
  }

  /// The request head the server received; waits until the connection was served.
  func request() -> String {
    finished.wait()
    return received.withLock { $0 } ?? ""
  }

  private func serveOnce(answer: [UInt8]) {
    defer {
      close(socket)
      finished.signal()
    }
    let connection = accept(socket, nil, nil)
    guard connection >= 0 else { return }
    defer { close(connection) }
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.ends(with: Array("\r\n\r\n".utf8)) {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { break }
      head += buffer[0..<count]
    }
    received.withLock { $0 = String(decoding: head, as: UTF8.self) }
    answer.withUnsafeBytes { _ = write(connection, $0.baseAddress, $0.count) }
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
