#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A generated archive's file that cannot be written, with the system's reason.
public struct ArchiveFileError: Error, CustomStringConvertible, Sendable {
  /// The file.
  public let path: String
  /// The `errno` value.
  public let code: Int32

  /// The file and the reason, for the command line.
  public var description: String {
    "cannot write \(path): \(String(cString: strerror(code)))"
  }
}
