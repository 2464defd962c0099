import Foundation
import Glibc
import Synchronization

/// A loopback TCP server that acts out a script per connection, for the framings and failures
/// `HTTPServer` does not produce on purpose: chunked answers, a close after a request, silence.
///
/// Each accepted connection runs the next script on a thread of its own; the server stops
/// accepting once every script has run.
final class ScriptedServer: Sendable {
  /// One connection's side of the conversation.
  struct Exchange: Sendable {
    let socket: Int32

    /// Reads one request head (and a `Content-Length` body); `nil` when the client closed.
    func readRequest() -> String? {
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        if let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
          let head = String(decoding: bytes[..<end.upperBound], as: UTF8.self)
          let length =
            head.lowercased().split(separator: "\r\n")
            .first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
          while bytes.count < end.upperBound + length {
            let count = read(socket, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
          }
          return String(decoding: bytes, as: UTF8.self)
        }
        let count = read(socket, &buffer, buffer.count)
        guard count > 0 else { return nil }
        bytes += buffer[0..<count]
      }
    }

    /// Writes `text` as it is.
    func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes `bytes` as they are.
    func write(_ bytes: [UInt8]) {
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes {
          send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        guard written > 0 else { return }
        offset += written
      }
    }

    /// Waits until the client closes its end.
    func waitForClose() {
      var byte: UInt8 = 0
      while read(socket, &byte, 1) > 0 {}
    }
  }

  let port: Int
  /// The request heads received, in order, over all connections.
  let requests = Mutex<[String]>([])
  /// Connections the server has closed, their scripts done.
  let closedConnections = Mutex(0)
  private let finished = DispatchGroup()

  /// Starts listening and serving `scripts`, one per connection in the order accepted.
  init(_ scripts: [@Sendable (Exchange, ScriptedServer) -> Void]) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ready = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, length) == 0 && listen(listener, 16) == 0
          && getsockname(listener, $0, &length) == 0
      }
    }
    guard ready else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    finished.enter()
    let thread = Thread { [self] in
      defer {
        close(listener)
        finished.leave()
      }
      for script in scripts {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        finished.enter()
        let worker = Thread { [self] in
          script(Exchange(socket: connection), self)
          close(connection)
          closedConnections.withLock { $0 += 1 }
          finished.leave()
        }
        worker.start()
      }
    }
    thread.start()
  }

  /// Records a request the script read.
  func record(_ request: String?) {
    if let request { requests.withLock { $0.append(request) } }
  }

  /// Waits until every script has run to its end.
  func waitUntilFinished() { finished.wait() }
}
