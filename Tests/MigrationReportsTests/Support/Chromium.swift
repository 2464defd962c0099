import Foundation
import TestDirectories

/// A headless Chromium, when the machine has one: `$CHROMIUM`, else `chromium`,
/// `chromium-browser` or `google-chrome` on the `PATH`. The project's test command installs
/// Debian's `chromium` when it is missing; without one, the browser tests are skipped and say so.
enum Chromium {
  static let path: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let explicit = environment["CHROMIUM"], !explicit.isEmpty {
      // Named explicitly: used as given, so a wrong path fails loudly instead of skipping.
      return explicit
    }
    let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for directory in directories {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }()

  static var isAvailable: Bool { path != nil }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Loads a page headless and returns the DOM after its scripts ran.
  ///
  /// - Parameters:
  ///   - url: the page, with a fragment if any.
  ///   - width: the window's width in CSS pixels (a phone is 390), or the default.
  ///   - allowFileAccess: whether a local page may read another local page's document (the
  ///     ``BrowserHarness`` reads the report in its frame).
  ///   - virtualTimeBudget: how long, in the page's virtual milliseconds, its scripts may run.
  static func dumpDOM(
    of url: URL, width: Int? = nil, allowFileAccess: Bool = false, virtualTimeBudget: Int = 5_000
  ) async throws -> String {
    let size = width.map { ["--window-size=\($0),844"] } ?? []
    let access = allowFileAccess ? ["--allow-file-access-from-files"] : []
    let output = try await run(
      size + access + [
        "--virtual-time-budget=\(virtualTimeBudget)", "--dump-dom", url.absoluteString,
      ])
    guard output.contains("</html>") else {
      throw Failure(
        description: "Chromium printed no DOM for \(url.absoluteString): \(output.prefix(500))")
    }
    return output
  }

  /// Saves a screenshot of a page.
  static func screenshot(
    of url: URL, to path: String, width: Int = 1280, height: Int = 3000,
    allowFileAccess: Bool = false
  ) async throws {
    _ = try await run(
      (allowFileAccess ? ["--allow-file-access-from-files"] : []) + [
        "--hide-scrollbars", "--window-size=\(width),\(height)", "--virtual-time-budget=3000",
        "--screenshot=\(path)", url.absoluteString,
      ])
  }

  /// Runs the browser on a Dispatch thread: the test waits for it without holding one of Swift's
  /// cooperative threads (as many as cores, two on the project's machine), on which every other
  /// test — and its time limit — counts.
  private static func run(_ arguments: [String]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try runBlocking(arguments) })
      }
    }
  }

  private static func runBlocking(_ arguments: [String]) throws -> String {
    guard let path else { throw Failure(description: "no Chromium found") }
    let profile = try TemporaryDirectory.makePath(prefix: "MigrationReportsTests-chromium")
    defer { TemporaryDirectory.remove(profile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments =
      [
        "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions", "--user-data-dir=\(profile)",
      ] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // A watchdog, not a wait: a browser that hangs is stopped so the test fails instead of
    // blocking the suite.
    let watchdog = DispatchWorkItem { [process] in
      if process.isRunning { process.terminate() }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw Failure(
        description:
          "\(path) \(arguments.joined(separator: " ")) ended with status \(process.terminationStatus)"
      )
    }
    return String(decoding: data, as: UTF8.self)
  }
}
