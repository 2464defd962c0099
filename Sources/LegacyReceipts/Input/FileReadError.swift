#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that could not be opened or read, with the operating system's reason.
public struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file, when known.
  public var path: String?
  /// The `errno` value.
  public var code: Int32

  /// Creates an error from an `errno` value.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - errno: the `errno` value.
  public init(path: String?, errno: Int32) {
    self.path = path
    self.code = errno
  }

  /// The operating system's text for the error: `No such file or directory`.
  public var reason: String { String(cString: strerror(code)) }

  /// `cannot read Legacy/x.json: Permission denied`.
  public var description: String {
    path.map { "cannot read \($0): \(reason)" } ?? "read failed: \(reason)"
  }
}
