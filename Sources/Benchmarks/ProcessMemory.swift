import Foundation

/// The resident memory of a running process, read from `/proc/PID/status`: what it holds now
/// (`VmRSS`) and the most it has held (`VmHWM`).
///
/// Read from outside the process, so a benchmark can watch a server without measuring itself.
public struct ProcessMemory: Sendable, Equatable {
  /// Resident set size now, in bytes.
  public var residentBytes: Int64
  /// The highest resident set size so far, in bytes.
  public var peakResidentBytes: Int64

  /// Creates figures.
  ///
  /// - Parameters:
  ///   - residentBytes: resident set size now.
  ///   - peakResidentBytes: the highest resident set size so far.
  public init(residentBytes: Int64, peakResidentBytes: Int64) {
    self.residentBytes = residentBytes
    self.peakResidentBytes = peakResidentBytes
  }

  /// The figures of a `/proc/PID/status` text, or `nil` when either line is missing.
  ///
  /// - Parameter status: the file's text (`VmRSS:  123456 kB` lines).
  init?(status: String) {
    var resident: Int64?
    var peak: Int64?
    for line in status.split(separator: "\n") {
      let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      // The kernel reports both in kibibytes, whatever the unit says ("kB").
      guard parts.count >= 2, let kibibytes = Int64(parts[1]) else { continue }
      switch parts[0] {
      case "VmRSS:": resident = kibibytes * 1024
      case "VmHWM:": peak = kibibytes * 1024
      default: continue
      }
    }
    guard let resident, let peak else { return nil }
    self.init(residentBytes: resident, peakResidentBytes: peak)
  }

  /// The figures of process `pid`, or `nil` when it has ended or procfs is not there.
  ///
  /// - Parameter pid: the process.
  /// - Returns: its memory now.
  static func of(pid: Int32) -> ProcessMemory? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return nil
    }
    return ProcessMemory(status: text)
  }
}
