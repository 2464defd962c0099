import Foundation
import HTTPClient

/// An ``HTTPTransport`` over the project's own HTTP/1.1 client (POSIX sockets, OpenSSL), the
/// default: it costs a fraction of the CPU per request that `URLSession` costs on Linux.
///
/// TLS always verifies the certificate chain against the system trust store and the host name;
/// keep-alive connections are pooled per host. See `SocketHTTPClient` for the details.
public final class SocketHTTPTransport: HTTPTransport {
  /// The client that sends the requests, for its statistics.
  public let client: SocketHTTPClient

  /// A transport with its own client and connection pool.
  ///
  /// - Parameters:
  ///   - timeout: Seconds before a request fails with ``TransportFailure/timedOut``.
  ///   - maximumConnectionsPerHost: Requests in progress (and so connections) at once.
  ///   - additionalTrustedCertificatesPEM: Certificates to trust besides the system's; for tests.
  public init(
    timeout: Double = 30, maximumConnectionsPerHost: Int = 64,
    additionalTrustedCertificatesPEM: [String] = []
  ) {
    var configuration = HTTPClientConfiguration()
    configuration.timeout = .milliseconds(Int64(timeout * 1000))
    configuration.maximumConcurrentRequests = maximumConnectionsPerHost
    configuration.maximumIdleConnectionsPerHost = maximumConnectionsPerHost
    configuration.additionalTrustedCertificatesPEM = additionalTrustedCertificatesPEM
    client = SocketHTTPClient(configuration: configuration)
  }

  /// Sends `request` through the client.
  ///
  /// - Parameter request: The request.
  /// - Returns: The answer.
  /// - Throws: ``TransportFailure`` mapped from the client's failure, its message kept.
  public func send(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse {
    let url = request.url
    guard let scheme = url.scheme, let host = url.host(percentEncoded: false) else {
      throw .other(detail: "the URL \(url.absoluteString) has no scheme or host")
    }
    var target = url.path(percentEncoded: true)
    if let query = url.query(percentEncoded: true) { target += "?" + query }
    let outgoing = HTTPClientRequest(
      method: request.method, scheme: scheme,
      // An IPv6 literal comes back in brackets from some URL implementations.
      host: host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host,
      port: url.port, target: target,
      headers: request.headers.map { (name: $0.key, value: $0.value) }, body: request.body)
    let response: HTTPClientResponse
    do {
      response = try await client.execute(outgoing)
    } catch {
      throw Self.failure(for: error)
    }
    var headers: [String: String] = [:]
    for (name, value) in response.headers {
      // Repeated fields fold into one, as RFC 9110 5.3 allows for list-valued fields.
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    return HTTPResponse(status: response.status, headers: headers, body: response.body)
  }

  /// The ``TransportFailure`` a client failure stands for; the retry policy reads the case, an
  /// operator reads the message.
  static func failure(for error: HTTPClientError) -> TransportFailure {
    switch error.kind {
    case .timedOut: .timedOut
    case .connectionClosed: .connectionReset
    case .truncatedBody: .truncatedBody(detail: error.message)
    case .cannotResolve, .cannotConnect, .tlsFailure: .cannotConnect(detail: error.message)
    case .certificateRejected: .certificateRejected(detail: error.message)
    case .malformedResponse, .responseTooLarge, .invalidRequest, .cancelled, .shutDown:
      .other(detail: error.message)
    }
  }
}
