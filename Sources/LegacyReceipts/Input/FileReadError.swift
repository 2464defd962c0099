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
  /// Words that say more than the system's text for `code`, when there are any.
  public var detail: String?

  /// Creates an error from an `errno` value.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - errno: the `errno` value.
  ///   - detail: words to use instead of the system's text.
  public init(path: String?, errno: Int32, detail: String? = nil) {
    self.path = path
    self.code = errno
    self.detail = detail
  }

  /// Whether reading stopped because the caller asked it to, not because of the file.
  public var isStop: Bool { code == ECANCELED && detail == nil }

  /// The reason: the detail, or the operating system's text (`No such file or directory`; a
  /// loop of symbolic links said as such).
  public var reason: String {
    detail ?? (code == ELOOP ? FileKind.reason(errno: code) : String(cString: strerror(code)))
  }

  /// `cannot read Legacy/x.json: Permission denied`.
  public var description: String {
    path.map { "cannot read \($0): \(reason)" } ?? "read failed: \(reason)"
  }
}
