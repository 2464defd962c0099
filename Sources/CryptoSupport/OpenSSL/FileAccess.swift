import Glibc

/// Reading and writing whole files with the operating system's exact reason on failure.
///
/// Foundation's file APIs report failures as localized prose or not at all; an operator looking
/// for a misplaced `.p8` file needs "No such file or directory" and the path.
enum FileAccess {
  /// The whole content of the file at `path`.
  ///
  /// - Parameters:
  ///   - path: The file to read.
  ///   - role: What the file should hold, for the error message ("the private key").
  static func read(_ path: String, role: String) throws(CryptoError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw failure(reading: path, role: role, errno: errno)
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(reading: path, role: role, errno: errno)
      }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
  }

  /// Replaces the file at `path` with `bytes`, creating it with the given permissions.
  ///
  /// - Parameters:
  ///   - bytes: The new content.
  ///   - path: The file to write.
  ///   - permissions: The mode of a newly created file (`0o600` for private keys).
  ///   - role: What the file holds, for the error message ("the root certificate").
  static func write(
    _ bytes: [UInt8], to path: String, permissions: mode_t, role: String
  ) throws(CryptoError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)
    guard descriptor >= 0 else {
      throw failure(writing: path, role: role, errno: errno)
    }
    defer { close(descriptor) }
    // An existing file keeps its old mode through O_TRUNC; a key file must not stay readable.
    guard fchmod(descriptor, permissions) == 0 else {
      throw failure(writing: path, role: role, errno: errno)
    }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw failure(writing: path, role: role, errno: errno)
      }
      offset += written
    }
  }

  private static func failure(reading path: String, role: String, errno code: Int32) -> CryptoError
  {
    CryptoError(
      .fileAccess,
      "cannot read \(role) at \(path): \(String(cString: strerror(code))); check the path and "
        + "that this user may read it")
  }

  private static func failure(writing path: String, role: String, errno code: Int32) -> CryptoError
  {
    CryptoError(
      .fileAccess,
      "cannot write \(role) to \(path): \(String(cString: strerror(code))); check that the "
        + "directory exists and that this user may write to it")
  }
}
