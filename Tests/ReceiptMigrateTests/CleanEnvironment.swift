import Foundation
import TestDirectories

/// Runs a command the way cron does: `/usr/bin/env -i` with only the variables cron sets
/// (`HOME`, `PATH=/usr/bin:/bin`, `SHELL=/bin/sh`), nothing inherited from the test process.
enum CleanEnvironment {
  /// cron's `PATH`.
  static let cronPath = "/usr/bin:/bin"

  /// Runs `/bin/sh -c line` with cron's environment and `home` as `HOME`.
  ///
  /// - Parameters:
  ///   - line: the command, as a crontab holds it after the schedule.
  ///   - home: the `HOME` cron would set.
  /// - Returns: the exit status and output.
  static func cron(_ line: String, home: URL) throws -> Tool.Result {
    try run([
      "/usr/bin/env", "-i", "HOME=\(home.path)", "PATH=\(cronPath)", "SHELL=/bin/sh", "/bin/sh",
      "-c", line,
    ])
  }

  /// Runs `arguments` (the first an absolute path) with an empty environment of its own; the
  /// command sets what it needs (`/usr/bin/env -i NAME=VALUE …`).
  ///
  /// Started with `posix_spawn`, for the reason ``Tool/run(_:in:environment:)`` gives.
  static func run(_ arguments: [String]) throws -> Tool.Result {
    let scratch = try TemporaryDirectory.make(prefix: "clean-output")
    defer { TemporaryDirectory.remove(scratch) }
    let outputPath = scratch.appendingPathComponent("stdout").path
    let errorPath = scratch.appendingPathComponent("stderr").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = [nil]
    defer {
      for pointer in argv { free(pointer) }
    }
    var pid: pid_t = 0
    let started = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EINVAL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = status & 0x7F == 0
    return Tool.Result(
      status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
      standardOutput: String(
        decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self),
      standardError: String(
        decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self))
  }
}
