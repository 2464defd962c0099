import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs another program and measures it from outside: wall time and peak resident memory
/// (`wait4`'s `ru_maxrss`), which `Process` does not report.
public enum ChildProcess {
  /// What a finished child reported.
  public struct Outcome: Sendable {
    /// The exit status (or 128 + signal).
    public var status: Int32
    /// Wall-clock seconds from spawn to exit.
    public var seconds: Double
    /// Peak resident set size in bytes.
    public var peakResidentBytes: Int64
    /// User plus system CPU seconds the child used.
    public var cpuSeconds: Double
  }

  /// Runs a program to completion, with its output discarded (its standard error passed through
  /// when asked).
  ///
  /// The peak memory is the child's own only when this process is small when it starts the
  /// child: Linux starts it sharing this process's memory until it executes the program, and
  /// counts that memory's high-water mark as the child's. Start children before this process
  /// grows, or from a small process.
  ///
  /// - Parameters:
  ///   - executable: the program's path.
  ///   - arguments: its arguments.
  ///   - showsErrors: whether the child's standard error goes to this process's.
  /// - Returns: status, time and peak memory.
  /// - Throws: when the program cannot be started.
  public static func run(_ executable: String, _ arguments: [String], showsErrors: Bool = false)
    throws -> Outcome
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    if !showsErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer {
      for argument in argv { free(argument) }
    }
    var pid: pid_t = 0
    let started = DispatchTime.now().uptimeNanoseconds
    let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard result == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
    }
    let (status, usage) = wait(for: pid)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    return Outcome(
      status: status, seconds: seconds, peakResidentBytes: usage.peakResidentBytes,
      cpuSeconds: usage.cpuSeconds)
  }

  /// Waits for a child to exit and reaps it.
  ///
  /// - Parameter pid: the child.
  /// - Returns: its exit status (or 128 + signal), peak memory and CPU time.
  static func wait(for pid: pid_t) -> (status: Int32, usage: ResourceUsage) {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exited = status & 0x7F == 0
    return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), ResourceUsage(usage))
  }
}
