import Foundation

/// One HTTP request as the client hands it to an ``HTTPTransport``.
///
/// `description` leaves out the `Authorization` header, so a request can be logged.
public struct HTTPRequest: Sendable, Hashable, CustomStringConvertible {
  /// The HTTP method: `GET`, `POST` or `PUT`.
  public var method: String

  /// The full URL, query included.
  public var url: URL

  /// Header fields by name.
  public var headers: [String: String]

  /// The body, if any.
  public var body: [UInt8]?

  /// A request from its parts.
  ///
  /// - Parameters:
  ///   - method: The HTTP method.
  ///   - url: The URL.
  ///   - headers: Header fields.
  ///   - body: The body.
  public init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8]? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// The method, URL and header names; the `Authorization` value is redacted.
  public var description: String {
    let names = headers.keys.sorted().map { name in
      name.lowercased() == "authorization"
        ? "\(name): <redacted>" : "\(name): \(headers[name] ?? "")"
    }
    return "\(method) \(url.absoluteString) [\(names.joined(separator: ", "))]"
  }
}
