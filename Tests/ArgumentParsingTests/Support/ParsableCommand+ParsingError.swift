import ArgumentParsing

extension ParsableCommand {
  /// The error parsing `arguments` throws, or `nil` when they parse.
  static func parsingError(_ arguments: [String]) -> (any Error)? {
    do {
      _ = try parseAsRoot(arguments)
      return nil
    } catch {
      return error
    }
  }
}
