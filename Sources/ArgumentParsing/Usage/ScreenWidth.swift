import Foundation

/// The width help text is wrapped to.
///
/// The `Terminal` target answers the same question for progress output; this copy keeps
/// `ArgumentParsing` free of dependencies.
enum ScreenWidth {
  /// Standard output's terminal width, else `COLUMNS`, else 80.
  static func current() -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
      return columns
    }
    return 80
  }
}
