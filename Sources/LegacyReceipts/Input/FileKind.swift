import Foundation

/// What a path names, as far as deciding whether to read it goes.
///
/// Input folders can hold anything a file system can: only regular files have an end that
/// reading is sure to reach, so everything else is named, in words, and skipped.
enum FileKind: Equatable, CustomStringConvertible {
  case regular
  case directory
  /// A named pipe, socket or device, described in words.
  case other(String)
  /// Nothing there (a broken link) or it cannot be examined.
  case missing

  /// The kind of what `path` names, following symbolic links.
  init(followingLinksAt path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      self = .missing
      return
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: self = .regular
    case S_IFDIR: self = .directory
    case S_IFIFO: self = .other("a named pipe")
    case S_IFSOCK: self = .other("a socket")
    case S_IFCHR: self = .other("a character device")
    case S_IFBLK: self = .other("a block device")
    default: self = .other("a special file")
    }
  }

  var description: String {
    switch self {
    case .regular: "a regular file"
    case .directory: "a directory"
    case .other(let words): words
    case .missing: "nothing readable"
    }
  }
}
