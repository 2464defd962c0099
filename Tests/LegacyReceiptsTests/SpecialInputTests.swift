import Foundation
import LegacyReceipts
import Synchronization
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Inputs named explicitly that are not regular files: pipes are read as they arrive, once,
/// waited for in slices that look at the stop request and given up when no writer comes;
/// devices and loops of links are refused with the reason. Evidence: our own code, against
/// the kernel's pipes (`mkfifo(3)`, `pipe(2)`) and devices.
@Suite("Inputs that are not files")
struct SpecialInputTests {
  static let records = [
    #"{"account_id":"a1","response":{"status":21007}}"#,
    #"{"account_id":"a2","response":{"status":21010}}"#,
  ]

  /// Every event of reading `paths`, described.
  static func read(
    _ paths: [String], options: LegacyInputReader.Options = .init()
  ) throws -> (accepted: [String], quarantined: [QuarantinedRecord]) {
    var accepted: [String] = []
    var quarantined: [QuarantinedRecord] = []
    try LegacyInputReader(options: options).read(paths) { event in
      switch event {
      case .record(let record): accepted.append(record.accountId)
      case .quarantined(let entry): quarantined.append(entry)
      case .fileStarted, .progress, .skipped: break
      }
    }
    return (accepted, quarantined)
  }

  /// A named pipe in a fresh folder.
  static func fifo(in directory: URL, named name: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    #expect(mkfifo(path, 0o600) == 0)
    return path
  }

  /// Feeds `text` into the pipe at `path` from another thread, once a reader opened it.
  static func feed(_ text: String, to path: String, after delay: useconds_t = 100_000) -> Thread {
    let thread = Thread {
      usleep(delay)
      let descriptor = open(path, O_WRONLY)
      guard descriptor >= 0 else { return }
      _ = Array(text.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }
    thread.start()
    return thread
  }

  @Test("a named pipe without an extension is read once: its first line says NDJSON or CSV")
  func namedPipes() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let ndjson = try Self.fifo(in: directory, named: "records")
    // Discovery alone (as ingest's size total and its fingerprint do) reads nothing.
    for _ in 0..<3 {
      #expect(LegacyInputReader().discover([ndjson]).files.map(\.isStream) == [true])
    }
    _ = Self.feed(Self.records.joined(separator: "\n") + "\n", to: ndjson)
    let read = try Self.read([ndjson])
    #expect(read.accepted == ["a1", "a2"])
    #expect(read.quarantined.isEmpty)

    let csv = try Self.fifo(in: directory, named: "seeds")
    // Lone CR row ends, as Excel's "CSV (Macintosh)" writes: told as CSV from the header.
    _ = Self.feed(
      "account_id,original_transaction_id\ra1,1000000000000001\ra2,1000000000000002\r", to: csv)
    let seeds = try Self.read([csv])
    #expect(seeds.accepted == ["a1", "a2"], "\(seeds.quarantined)")
  }

  @Test("an anonymous pipe (what <(…) hands over as /dev/fd/N) is read like a named one")
  func anonymousPipe() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let path = "/dev/fd/\(ends[0])"
    defer { close(ends[0]) }
    let text = Self.records.joined(separator: "\n")
    _ = Array(text.utf8).withUnsafeBytes { Glibc.write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    #expect(FileKind(followingLinksAt: path) == .pipe)
    let read = try Self.read([path])
    #expect(read.accepted == ["a1", "a2"])
  }

  @Test("a named pipe nobody writes to is given up after the wait, with the reason")
  func noWriter() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = try Self.fifo(in: directory, named: "silent.ndjson")
    let read = try Self.read([path], options: .init(pipeWriterWait: 300))
    #expect(read.accepted.isEmpty)
    #expect(read.quarantined.count == 1)
    #expect(read.quarantined.first?.reason == .unreadableFile)
    #expect(read.quarantined.first?.detail.contains("nothing arrived through the pipe") == true)
  }

  @Test("a stop asked while a pipe has no writer ends reading within a slice")
  func stopWhileWaiting() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = try Self.fifo(in: directory, named: "silent.ndjson")
    let asked = Atomic<Int>(0)
    let options = LegacyInputReader.Options(
      pipeWriterWait: 600_000,
      isStopping: {
        // Stopped at the fourth look: about 300 ms into the wait.
        asked.add(1, ordering: .relaxed).newValue >= 4
      })
    #expect(throws: CancellationError.self) { _ = try Self.read([path], options: options) }
    #expect(asked.load(ordering: .relaxed) == 4)
  }

  @Test(
    "devices and loops of links named explicitly are refused with the reason, not read",
    arguments: ["/dev/zero", "/dev/urandom", "loop"])
  func refused(name: String) throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    #expect(symlink("loop", directory.appendingPathComponent("loop").path) == 0)
    let path = name.hasPrefix("/") ? name : directory.appendingPathComponent(name).path
    let read = try Self.read([path])
    #expect(read.accepted.isEmpty)
    let detail = try #require(read.quarantined.first?.detail)
    #expect(read.quarantined.count == 1)
    #expect(
      detail.contains(name == "loop" ? "a loop of symbolic links" : "a character device"),
      "\(detail)")
  }

  @Test("a pipe named .json is one document, bounded by --max-record-bytes as it arrives")
  func boundedDocument() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = try Self.fifo(in: directory, named: "big.json")
    _ = Self.feed(
      #"{"account_id":"a1","response":{"status":21010,"pad":""#
        + String(repeating: "x", count: 10_000) + "\n" + String(repeating: "y", count: 10_000)
        + #""}}"#, to: path)
    let read = try Self.read([path], options: .init(maximumRecordBytes: 4_096))
    #expect(read.accepted.isEmpty)
    #expect(read.quarantined.first?.detail.contains("passes 4096 bytes") == true)
  }
}
