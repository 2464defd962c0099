import Foundation

/// What an output stream can show: whether it is a terminal, how wide it is, and whether
/// colour is welcome.
public struct TerminalCapabilities: Sendable, Equatable {
  /// Whether the stream is a terminal (TTY), so output can be rewritten in place.
  public var isTerminal: Bool
  /// The number of columns to fit a line in.
  public var width: Int
  /// Whether ANSI colours may be used.
  public var allowsColor: Bool

  /// Creates capabilities, for tests and for callers that know better than detection.
  ///
  /// - Parameters:
  ///   - isTerminal: Whether the stream is a terminal.
  ///   - width: The number of columns.
  ///   - allowsColor: Whether ANSI colours may be used.
  public init(isTerminal: Bool, width: Int, allowsColor: Bool) {
    self.isTerminal = isTerminal
    self.width = width
    self.allowsColor = allowsColor
  }

  /// Detects the capabilities of an open file descriptor.
  ///
  /// The width is the terminal's (`TIOCGWINSZ`), else a positive `COLUMNS`, else 80. Colour
  /// needs a terminal, a `TERM` other than `dumb`, and no non-empty `NO_COLOR`
  /// (no-color.org); a missing `TERM` counts as `dumb`, as cron and service managers leave it
  /// unset.
  ///
  /// - Parameters:
  ///   - fileDescriptor: The stream to inspect; standard error, where progress goes, by
  ///     default.
  ///   - environment: The environment variables to consult.
  /// - Returns: The detected capabilities.
  public static func detect(
    fileDescriptor: Int32 = STDERR_FILENO,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TerminalCapabilities {
    let isTerminal = isatty(fileDescriptor) == 1
    var width = 80
    var size = winsize()
    if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      width = Int(size.ws_col)
    } else if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
      width = columns
    }
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    let term = environment["TERM"] ?? "dumb"
    return TerminalCapabilities(
      isTerminal: isTerminal,
      width: width,
      allowsColor: isTerminal && !noColor && term != "dumb")
  }
}
