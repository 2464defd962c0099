import Foundation
import Glibc
import HTTPServer

/// A deliberately dumb HTTP client over a blocking POSIX socket, so tests can send exactly the
/// bytes they mean — malformed, pipelined, trickled — and see exactly the bytes that come back.
///
/// Every read has a receive timeout of ten seconds. It is a safety net, not a wait: a server that
/// misbehaves fails the test instead of hanging the suite.
final class RawHTTPClient {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let descriptor: Int32
  private var pending: [UInt8] = []
  private var isClosed = false

  init(port: Int) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(
      descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let error = errno
      Glibc.close(descriptor)
      throw Failure(description: "connect() to port \(port) failed: errno \(error)")
    }
  }

  deinit {
    if !isClosed { Glibc.close(descriptor) }
  }

  /// Closes the socket now rather than at deinit.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    Glibc.close(descriptor)
  }

  /// The local port, which the server sees as the client's port.
  var localPort: Int {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  // MARK: - Sending

  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
      offset += sent
    }
  }

  /// Sends FIN: the server sees the end of the stream, the client can still read.
  func shutdownWriting() {
    shutdown(descriptor, Int32(SHUT_WR))
  }

  // MARK: - Receiving

  /// Reads one response: status line, headers, and a `Content-Length` body (or, without one, the
  /// body up to the close).
  func readResponse(toHeadRequest: Bool = false) throws -> RawResponse {
    var headEnd: Int?
    while headEnd == nil {
      headEnd = pending.indices.dropLast(3).first {
        pending[$0] == 13 && pending[$0 + 1] == 10 && pending[$0 + 2] == 13 && pending[$0 + 3] == 10
      }
      if headEnd == nil {
        guard try receiveMore() else {
          throw Failure(description: "the connection closed before a complete response head")
        }
      }
    }
    let end = headEnd ?? 0
    let headText = String(decoding: pending[..<end], as: UTF8.self)
    pending.removeFirst(end + 4)
    var lines = headText.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst()
    let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
      throw Failure(description: "not a status line: \(statusLine)")
    }
    var headers = HTTPHeaders()
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else {
        throw Failure(description: "not a header line: \(line)")
      }
      headers.add(
        name: String(line[..<colon]),
        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    let reason = parts.count == 3 ? String(parts[2]) : ""
    if status < 200 || status == 204 || status == 304 || toHeadRequest {
      return RawResponse(status: status, reason: reason, headers: headers, body: [])
    }
    guard let lengthText = headers["Content-Length"] else {
      return RawResponse(status: status, reason: reason, headers: headers, body: try readToEnd())
    }
    guard let length = Int(lengthText) else {
      throw Failure(description: "bad Content-Length \(lengthText)")
    }
    while pending.count < length {
      guard try receiveMore() else {
        throw Failure(
          description: "the connection closed after \(pending.count) of \(length) body bytes")
      }
    }
    let body = Array(pending[..<length])
    pending.removeFirst(length)
    return RawResponse(status: status, reason: reason, headers: headers, body: body)
  }

  /// Reads until the server closes the connection.
  ///
  /// - Returns: Whatever arrived before the close.
  func readToEnd() throws -> [UInt8] {
    while try receiveMore() {}
    defer { pending.removeAll() }
    return pending
  }

  /// Whether the server has closed the connection (FIN or reset) with nothing more to read.
  func serverClosedConnection() throws -> Bool {
    try readToEnd().isEmpty
  }

  /// - Returns: `false` at the end of the stream.
  private func receiveMore() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if received > 0 {
      pending += chunk[..<received]
      return true
    }
    if received == 0 || errno == ECONNRESET { return false }
    throw Failure(
      description: errno == EAGAIN
        ? "no answer from the server within the client's 10 s safety timeout"
        : "recv() failed: errno \(errno)")
  }
}
