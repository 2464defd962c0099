import Chronology
import Foundation
import JSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The Set App Account Token changes a simulator made, kept in a file so that a simulator
/// started again — at the same clock or a later one — still holds the tokens it was given, as
/// Apple keeps them.
///
/// One JSON object a line: `{"original_transaction_id", "app_account_token", "clock_ms"}`, the
/// clock being the App Store's when the change was made. A change is written and flushed to the
/// disk before the request is answered, so an answered change is never lost; a line torn by a
/// crash was never answered, and is dropped when the file is opened again (its request is in
/// doubt for the client, exactly as if the change had not happened).
///
/// Replayed at a later clock, each change applies as it did when it was made: to the purchase's
/// latest transaction at the change's clock and every later one, so renewals made since carry
/// it, and a later change of the same purchase overrides it from its own clock on.
final class TokenChangeLog: Sendable {
  /// One change.
  struct Change: Hashable, Sendable {
    /// The purchase.
    var originalTransactionId: String
    /// The token set, lower-cased.
    var token: String
    /// The App Store's clock when it was set.
    var clock: Timestamp
  }

  /// A change could not be written.
  struct Failure: Error, CustomStringConvertible {
    /// What failed.
    var description: String
  }

  /// The file.
  let path: String
  /// Open for appending once the file exists (it is created by the first change, so a server
  /// that changes nothing leaves no file behind); -1 before.
  private let descriptor: Mutex<Int32>

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = Mutex(descriptor)
  }

  deinit {
    let open = descriptor.withLock { $0 }
    if open >= 0 { close(open) }
  }

  /// Opens a log and reads the changes it holds, oldest first; a missing file holds none and
  /// is created (mode 0600) by the first change.
  ///
  /// - Parameter path: the file.
  /// - Returns: the log, open for appending, and its changes.
  /// - Throws: `SimulatorStartError` when the file cannot be opened, or a line other than a
  ///   torn last one is not a change.
  static func open(path: String) throws(SimulatorStartError) -> (TokenChangeLog, [Change]) {
    guard FileManager.default.fileExists(atPath: path) else {
      return (TokenChangeLog(path: path, descriptor: -1), [])
    }
    let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw SimulatorStartError(
        "the token log \(path) cannot be opened: \(String(cString: strerror(errno)))")
    }
    let log = TokenChangeLog(path: path, descriptor: descriptor)
    let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
    var changes: [Change] = []
    var lineStart = 0
    var lineNumber = 0
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lineNumber += 1
      let line = Array(bytes[lineStart..<offset])
      lineStart = offset + 1
      if line.isEmpty { continue }
      guard let change = decode(line) else {
        throw SimulatorStartError(
          "line \(lineNumber) of the token log \(path) is not a token change; the file was "
            + "changed by something other than the simulator")
      }
      changes.append(change)
    }
    // A last line without its newline was torn by a crash before its request was answered.
    guard ftruncate(descriptor, off_t(lineStart)) == 0, lseek(descriptor, 0, SEEK_END) >= 0 else {
      throw SimulatorStartError(
        "the token log \(path) cannot be prepared for writing: \(String(cString: strerror(errno)))"
      )
    }
    return (log, changes)
  }

  /// Writes a change and flushes it to the disk.
  ///
  /// - Parameter change: the change.
  /// - Throws: ``Failure`` when it cannot be written.
  func append(_ change: Change) throws(Failure) {
    let descriptor = try self.descriptor.withLock { open throws(Failure) -> Int32 in
      if open < 0 {
        open = Glibc.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard open >= 0 else {
          throw Failure(
            description:
              "the token log \(path) cannot be created: \(String(cString: strerror(errno)))")
        }
      }
      return open
    }
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("original_transaction_id", change.originalTransactionId)
    writer.field("app_account_token", change.token)
    writer.field("clock_ms", change.clock.millisecondsSince1970)
    writer.endObject()
    let line = writer.bytes + [UInt8(ascii: "\n")]
    var written = 0
    while written < line.count {
      let result = line[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if result < 0 && errno == EINTR { continue }
      guard result > 0 else {
        throw Failure(
          description:
            "the token log \(path) cannot be written: \(String(cString: strerror(errno)))")
      }
      written += result
    }
    guard fsync(descriptor) == 0 else {
      throw Failure(
        description: "the token log \(path) cannot be flushed: \(String(cString: strerror(errno)))")
    }
  }

  private static func decode(_ line: [UInt8]) -> Change? {
    guard let value = try? JSONValue(parsing: line),
      let original = value["original_transaction_id"]?.stringValue,
      let token = value["app_account_token"]?.stringValue,
      let clock = value["clock_ms"]?.int64Value
    else { return nil }
    return Change(
      originalTransactionId: original, token: token,
      clock: Timestamp(millisecondsSince1970: clock))
  }
}
