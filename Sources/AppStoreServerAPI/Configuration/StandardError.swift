import Foundation

/// Writes notices to standard error (never key material: callers pass finished sentences).
enum StandardError {
  static func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
