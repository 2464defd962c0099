import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ``HTTPTransport`` over Foundation's `URLSession` (libcurl on Linux), with keep-alive
/// connections shared by all requests.
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession

  /// How long a request may take, in seconds.
  public let timeout: Double

  /// A transport with its own session.
  ///
  /// - Parameters:
  ///   - timeout: Seconds before a request fails with ``TransportFailure/timedOut``.
  ///   - maximumConnectionsPerHost: Keep-alive connections per host.
  public init(timeout: Double = 30, maximumConnectionsPerHost: Int = 64) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    session = URLSession(configuration: configuration)
    self.timeout = timeout
  }

  /// Sends `request` through the session.
  ///
  /// - Parameter request: The request.
  /// - Returns: The answer.
  /// - Throws: ``TransportFailure`` mapped from the session's `URLError`.
  public func send(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.timeoutInterval = timeout
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    if let body = request.body { urlRequest.httpBody = Data(body) }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: urlRequest)
    } catch let error as URLError {
      throw Self.failure(for: error)
    } catch {
      throw .other(detail: String(describing: type(of: error)))
    }
    guard let http = response as? HTTPURLResponse else {
      throw .other(detail: "the answer is not HTTP")
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { headers[name] = value }
    }
    if let announced = headers.first(where: { $0.key.lowercased() == "content-length" })
      .flatMap({ Int($0.value) }), announced > data.count
    {
      throw .truncatedBody(detail: "\(data.count) of \(announced) bytes")
    }
    return HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](data))
  }

  /// The failure a `URLError` stands for. Its text is not used: it may hold the URL, never the
  /// token, but the codes say everything the retry policy needs.
  static func failure(for error: URLError) -> TransportFailure {
    switch error.code {
    case .timedOut: .timedOut
    case .networkConnectionLost: .connectionReset
    case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
      .secureConnectionFailed:
      .cannotConnect(detail: "URLError \(error.code.rawValue)")
    case .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      .certificateRejected(detail: "URLError \(error.code.rawValue)")
    case .cannotParseResponse, .badServerResponse, .cannotDecodeRawData,
      .cannotDecodeContentData:
      .truncatedBody(detail: "URLError \(error.code.rawValue)")
    default: .other(detail: "URLError \(error.code.rawValue)")
    }
  }
}
