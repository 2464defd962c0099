import Chronology
import Foundation
import LegacyReceipts

#if canImport(Glibc)
  import Glibc
#endif

/// `bench ingest`: how fast legacy responses are parsed and evaluated, how fast the whole
/// ingest stores them, how much memory it needs — and, as the peer baseline on the very same
/// bytes, how fast Python's `json.loads` merely parses them.
public struct IngestBenchmark {
  /// The corpus size in bytes.
  public var corpusBytes: Int64
  /// The `receipt-migrate` executable whose `ingest` is measured from outside.
  public var executable: String
  /// Where the corpus and the database go (removed afterwards unless `keepFiles`).
  public var workingDirectory: String
  /// Keep the corpus and database for inspection.
  public var keepFiles: Bool
  /// How often each phase runs; the best run is reported, since noise only ever slows a run.
  public var repetitions: Int = 3

  /// Creates the benchmark.
  ///
  /// - Parameters:
  ///   - corpusBytes: the corpus size.
  ///   - executable: the `receipt-migrate` binary.
  ///   - workingDirectory: a scratch directory.
  ///   - keepFiles: keep the corpus and database.
  public init(corpusBytes: Int64, executable: String, workingDirectory: String, keepFiles: Bool) {
    self.corpusBytes = corpusBytes
    self.executable = executable
    self.workingDirectory = workingDirectory
    self.keepFiles = keepFiles
  }

  /// Runs every phase and returns the report, one figure per line.
  ///
  /// - Parameter log: receives progress lines while the phases run.
  /// - Returns: the figures.
  /// - Throws: when files cannot be written or a child cannot start.
  public func run(log: (String) -> Void) throws -> String {
    try FileManager.default.createDirectory(
      atPath: workingDirectory, withIntermediateDirectories: true)
    let corpus = workingDirectory + "/corpus.ndjson"
    let database = workingDirectory + "/bench.sqlite"
    defer {
      if !keepFiles {
        for path in [corpus, database, database + "-wal", database + "-shm"] {
          try? FileManager.default.removeItem(atPath: path)
        }
      }
    }
    log("writing a \(Self.megabytes(corpusBytes)) corpus to \(corpus)")
    let (responses, bytes) = try LegacyCorpusGenerator().write(to: corpus, bytes: corpusBytes)

    var parseRuns: [(seconds: Double, cpuSeconds: Double, evaluated: Int)] = []
    var pythonRuns: [(seconds: Double, cpuSeconds: Double)] = []
    var ingestRuns: [ChildProcess.Outcome] = []
    for round in 1...max(1, repetitions) {
      log("round \(round): parsing and evaluating in process")
      parseRuns.append(try measureParseAndEvaluate(corpus))
      log("round \(round): timing python3 json.loads on the same bytes")
      if let python = Self.pythonParseSeconds(corpus) { pythonRuns.append(python) }
      log("round \(round): running \(executable) ingest on the corpus")
      for path in [database, database + "-wal", database + "-shm"] {
        try? FileManager.default.removeItem(atPath: path)
      }
      ingestRuns.append(try ChildProcess.run(executable, ["ingest", corpus, "--db", database]))
    }
    let parse = parseRuns.min { $0.cpuSeconds < $1.cpuSeconds } ?? parseRuns[0]
    let python = pythonRuns.min { $0.cpuSeconds < $1.cpuSeconds }
    let ingest = ingestRuns.min { $0.seconds < $1.seconds } ?? ingestRuns[0]
    let peakMemory = ingestRuns.map(\.peakResidentBytes).max() ?? 0

    // On a shared machine wall time measures the neighbours too; CPU time does not, so the
    // ratio with Python is taken on CPU time and both are printed.
    var lines: [String] = []
    lines.append(
      "corpus: \(Self.megabytes(bytes)), best of \(max(1, repetitions)) runs, \(responses) responses (\(Self.kilobytes(bytes / Int64(max(responses, 1)))) each, ~36 renewals, 8 KB latest_receipt)"
    )
    let parseRate = Double(bytes) / parse.cpuSeconds / 1e6
    lines.append(
      "parse + old logic, in process:   \(Self.format(parseRate)) MB per CPU-second  \(Self.format(Double(responses) / parse.cpuSeconds)) responses/s  (wall \(Self.format(Double(bytes) / parse.seconds / 1e6)) MB/s; \(parse.evaluated) verdicts)"
    )
    if let python {
      let pythonRate = Double(bytes) / python.cpuSeconds / 1e6
      lines.append(
        "python3 json.loads, parse only:  \(Self.format(pythonRate)) MB per CPU-second  \(Self.format(Double(responses) / python.cpuSeconds)) responses/s  (wall \(Self.format(Double(bytes) / python.seconds / 1e6)) MB/s)"
      )
      lines.append(
        "ratio (parse + evaluate / python parse, CPU time): \(Self.format(parseRate / pythonRate, digits: 2))  (target >= 1.0)"
      )
    } else {
      lines.append("python3 json.loads: skipped (python3 not found)")
    }
    lines.append(
      "whole ingest into SQLite:        \(Self.format(Double(bytes) / ingest.seconds / 1e6)) MB/s  (\(Self.format(ingest.seconds, digits: 2)) s wall, \(Self.format(ingest.cpuSeconds, digits: 2)) s CPU on 2 threads, exit \(ingest.status))  (target >= 100 MB/s)"
    )
    lines.append(
      "peak memory of the ingest:       \(Self.format(Double(peakMemory) / 1e6)) MB  (target < 150 MB for a 1 GB corpus)"
    )
    return lines.joined(separator: "\n")
  }

  private func measureParseAndEvaluate(_ corpus: String) throws -> (
    seconds: Double, cpuSeconds: Double, evaluated: Int
  ) {
    let logic = OldEntitlementLogic()
    var evaluated = 0
    let started = DispatchTime.now().uptimeNanoseconds
    let startedCPU = Self.threadCPUSeconds()
    try LegacyInputReader().read([corpus]) { event in
      guard case .record(let record) = event, case .response(let response) = record.content,
        let captured = record.capturedAt
      else { return }
      evaluated += logic.evaluate(response, at: captured).count
    }
    return (
      Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
      Self.threadCPUSeconds() - startedCPU, evaluated
    )
  }

  /// CPU seconds used by the calling thread.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Wall and CPU seconds Python spends in `json.loads` over every line (reading excluded),
  /// or `nil` without `python3`.
  static func pythonParseSeconds(_ corpus: String) -> (seconds: Double, cpuSeconds: Double)? {
    let script = """
      import json, sys, time
      wall = 0.0
      cpu = 0.0
      with open(sys.argv[1], 'rb') as f:
          for line in f:
              w = time.perf_counter(); c = time.thread_time()
              json.loads(line)
              cpu += time.thread_time() - c; wall += time.perf_counter() - w
      print(wall, cpu)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, corpus]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let figures = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard figures.count == 2 else { return nil }
    return (figures[0], figures[1])
  }

  static func format(_ value: Double, digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
  }

  static func megabytes(_ bytes: Int64) -> String { format(Double(bytes) / 1e6) + " MB" }

  static func kilobytes(_ bytes: Int64) -> String { format(Double(bytes) / 1e3) + " kB" }
}
