import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file-system operations a report needs, on POSIX calls so that modes, atomic
/// renames and symbolic links are exactly what the documentation promises.
enum ReportFileSystem {
  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// Creates a folder and its missing parents with mode 0700; an existing folder is fine.
  static func createDirectory(_ path: String) throws(ReportError) {
    guard !path.isEmpty else {
      throw ReportError(
        .cannotCreateDirectory, path: path,
        "the report folder path is empty; give a folder such as Reports")
    }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += component
      if mkdir(prefix, 0o700) != 0 {
        let code = errno
        var status = stat()
        guard code == EEXIST, stat(prefix, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR
        else {
          throw ReportError(
            .cannotCreateDirectory, path: prefix,
            "cannot create the report folder \(prefix): \(reason(code == EEXIST ? ENOTDIR : code)); "
              + "check the path and its permissions")
        }
      }
      prefix += "/"
    }
  }

  /// Removes a folder and everything in it; a missing folder is fine. Symbolic links inside are
  /// removed, never followed.
  static func removeDirectory(_ path: String) throws(ReportError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw ReportError(
        .cannotWriteFile, path: path,
        "cannot remove the unfinished report folder \(path): \(error); check its permissions")
    }
  }

  /// Renames a fully written folder to its final name; an existing folder of that name is moved
  /// to `replacedName` first and removed once the new one is in place, so the final name always
  /// holds one complete report.
  static func commitDirectory(_ staged: String, to final: String, replacedName: String)
    throws(ReportError)
  {
    var status = stat()
    let replacing = lstat(final, &status) == 0
    if replacing {
      try removeDirectory(replacedName)
      guard rename(final, replacedName) == 0 else { throw commitError(final, errno) }
    }
    guard rename(staged, final) == 0 else {
      let code = errno
      if replacing { rename(replacedName, final) }
      throw commitError(final, code)
    }
    // The old report is out of the way; if it cannot be removed now, the next writer does it.
    if replacing { try? removeDirectory(replacedName) }
  }

  private static func commitError(_ path: String, _ code: Int32) -> ReportError {
    ReportError(
      .cannotWriteFile, path: path,
      "cannot put the report folder \(path) in place: \(reason(code)); check the folder's "
        + "permissions")
  }

  /// Writes bytes to a temporary file beside `path` (mode 0600), then renames it into place.
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReportError) {
    try writeAtomically(to: path) { $0.write(bytes) }
  }

  /// Writes what `produce` renders to a temporary file beside `path` (mode 0600), in blocks as
  /// it is rendered, then renames it into place.
  static func writeAtomically(to path: String, _ produce: (inout ReportOutput) -> Void)
    throws(ReportError)
  {
    let temporary = path + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw writeError(path, errno)
    }
    var output = ReportOutput(descriptor: descriptor)
    produce(&output)
    output.flush()
    var failure = output.failure
    if failure == nil, close(descriptor) != 0 {
      failure = errno
    } else if failure != nil {
      close(descriptor)
    }
    if failure == nil, rename(temporary, path) != 0 {
      failure = errno
    }
    if let failure {
      unlink(temporary)
      throw writeError(path, failure)
    }
  }

  /// Makes `path` a symbolic link to `target`, replacing an existing link atomically; refuses
  /// to replace anything that is not a link.
  static func replaceSymbolicLink(at path: String, target: String, temporaryName: String)
    throws(ReportError)
  {
    var status = stat()
    if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFLNK {
      throw ReportError(
        .cannotLinkLatest, path: path,
        "cannot point \(path) at the run \(target): it exists and is not a symbolic link; "
          + "move it away and run the report again")
    }
    let temporary =
      path.lastIndex(of: "/").map { String(path[...$0]) + temporaryName } ?? temporaryName
    unlink(temporary)  // A leftover of an interrupted run; its absence is the usual case.
    guard symlink(target, temporary) == 0 else {
      throw linkError(path, target, errno)
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw linkError(path, target, code)
    }
  }

  static func writeError(_ path: String, _ code: Int32) -> ReportError {
    ReportError(
      .cannotWriteFile, path: path,
      "cannot write the report file \(path): \(reason(code)); check the folder's permissions and free space"
    )
  }

  private static func linkError(_ path: String, _ target: String, _ code: Int32) -> ReportError {
    ReportError(
      .cannotLinkLatest, path: path,
      "cannot point \(path) at the run \(target): \(reason(code)); check the folder's permissions")
  }

  private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
