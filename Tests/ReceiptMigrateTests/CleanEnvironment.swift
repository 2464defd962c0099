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
    try Tool.spawn(arguments, environment: [])
  }
}
