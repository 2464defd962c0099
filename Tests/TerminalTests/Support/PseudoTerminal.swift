import Glibc

/// A pseudo-terminal pair, so tests can check terminal detection on a real TTY.
///
/// Opens `/dev/ptmx` and unlocks it with ioctls, because Swift's Glibc module does not
/// import `posix_openpt`, `grantpt` and `unlockpt` (they sit behind `_XOPEN_SOURCE`).
final class PseudoTerminal {
  struct Failure: Error, CustomStringConvertible {
    var step: String
    var code: Int32
    var description: String { "\(step) failed with errno \(code)" }
  }

  /// `_IOR('T', 0x30, unsigned int)` and `_IOW('T', 0x31, int)` from <asm-generic/ioctls.h>,
  /// which Swift cannot import as they are function-like macros; the encoding is the same on
  /// x86-64 and arm64.
  private static let getPTYNumber: UInt = 0x8004_5430
  private static let setPTYLock: UInt = 0x4004_5431

  let controller: Int32
  let terminal: Int32

  /// Opens a pair whose terminal side reports `columns` by `rows`.
  init(columns: UInt16, rows: UInt16) throws {
    controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard controller >= 0 else { throw Failure(step: "open /dev/ptmx", code: errno) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(controller, Self.setPTYLock, &unlock) == 0,
      ioctl(controller, Self.getPTYNumber, &number) == 0
    else {
      let code = errno
      close(controller)
      throw Failure(step: "unlocking the pseudo-terminal", code: code)
    }
    terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard terminal >= 0 else {
      let code = errno
      close(controller)
      throw Failure(step: "open /dev/pts/\(number)", code: code)
    }
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    guard ioctl(controller, UInt(TIOCSWINSZ), &size) == 0 else {
      let code = errno
      close(terminal)
      close(controller)
      throw Failure(step: "TIOCSWINSZ", code: code)
    }
  }

  deinit {
    close(terminal)
    close(controller)
  }
}
