import Foundation

/// The path of the running `receipt-migrate`, for benchmarks that measure it from outside.
enum ExecutablePath {
  static var current: String {
    Bundle.main.executablePath
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
  }
}
