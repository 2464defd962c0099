import HTTPServer

/// Handlers shared by several test suites.
enum TestHandlers {
  /// Answers with a plain-text description of the request, one fact per line, so tests can
  /// check what the server parsed.
  static let echo: HTTPServer.Handler = { request in
    var lines = ["method=\(request.method)", "path=\(request.path)"]
    lines += request.queryItems.map { "query:\($0.name)=\($0.value)" }
    lines += request.headers.map { "header:\($0.name)=\($0.value)" }
    lines.append("body=\(String(decoding: request.body, as: UTF8.self))")
    return .text(lines.joined(separator: "\n"))
  }
}
