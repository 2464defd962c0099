#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a path names, as far as deciding whether and how to read it goes.
///
/// Only regular files have an end that reading is sure to reach. A pipe has one too — when its
/// writer closes it — so a pipe named explicitly (a named pipe, or `<(…)` process substitution,
/// which the shell hands over as `/dev/fd/N`) is read, as a stream; everything else that is
/// neither a file nor a folder (`/dev/zero`, `/dev/urandom`, a terminal, a socket) never ends or
/// never starts, and is refused with its kind in words.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
  /// A regular file.
  case regular
  /// A directory.
  case directory
  /// A pipe: a named pipe (FIFO), or an anonymous one such as process substitution's.
  case pipe
  /// A device or a socket, described in words ("a character device").
  case special(String)
  /// Nothing there, or it cannot be examined; the system's `errno` says why.
  case missing(errno: Int32)

  /// The kind of what `path` names, following symbolic links.
  ///
  /// - Parameter path: the path.
  public init(followingLinksAt path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      self = .missing(errno: errno)
      return
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .directory
    case S_IFIFO: self = .pipe
    case S_IFSOCK: self = .special("a socket")
    case S_IFCHR: self = .special("a character device")
    case S_IFBLK: self = .special("a block device")
    default: self = .special("a special file")
    }
  }

  /// Why a path of this kind named explicitly as an input cannot be read, or `nil` when it can
  /// (a regular file, a folder, a pipe).
  public var refusal: String? {
    switch self {
    case .regular, .directory, .pipe:
      nil
    case .special(let words):
      "\(words), whose reading never ends (or never starts); only files, folders and pipes "
        + "are read"
    case .missing(let code):
      Self.reason(errno: code)
    }
  }

  /// The words for why a path could not be examined: a loop of symbolic links says so, rather
  /// than "no such file".
  ///
  /// - Parameter code: the `errno` of `stat`.
  /// - Returns: the reason.
  public static func reason(errno code: Int32) -> String {
    switch code {
    case ENOENT: "no such file or folder"
    case ELOOP: "a loop of symbolic links (a link that leads back to itself, or more than 40)"
    case ENOTDIR: "a part of the path is not a folder"
    default: String(cString: strerror(code))
    }
  }

  /// The kind in words.
  public var description: String {
    switch self {
    case .regular: "a regular file"
    case .directory: "a directory"
    // Only named pipes live in folders, where this is said.
    case .pipe: "a named pipe"
    case .special(let words): words
    case .missing: "nothing readable"
    }
  }
}
