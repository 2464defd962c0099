import Foundation
import HTTPClient

/// Hands a run's headline to a person when the run alerts (exit 1 or 4): to a command
/// (`--notify-command`, the headline's JSON on its standard input) and to a webhook
/// (`--webhook`, a POST of the same JSON, whose `text` field Slack and compatible chat tools
/// show).
///
/// A failure to notify is reported, never fatal: the run's exit code and report stand. Both are
/// bounded in time, so a hung command or an unanswering server cannot keep a nightly job from
/// ending.
public struct AlertDelivery: Sendable {
  /// The command to run, through `/bin/sh -c`, or `nil`.
  public var notifyCommand: String?
  /// The URL to post to, or `nil`.
  public var webhook: String?
  /// How long the command may run, and the webhook take to answer.
  public var timeout: Duration

  /// Creates a delivery.
  ///
  /// - Parameters:
  ///   - notifyCommand: the command, or `nil`.
  ///   - webhook: the URL, or `nil`.
  ///   - timeout: the bound on each.
  public init(notifyCommand: String?, webhook: String?, timeout: Duration = .seconds(30)) {
    self.notifyCommand = notifyCommand
    self.webhook = webhook
    self.timeout = timeout
  }

  /// Whether there is anywhere to deliver to.
  public var isConfigured: Bool { notifyCommand != nil || webhook != nil }

  /// Delivers a headline to the command and the webhook.
  ///
  /// - Parameter headline: the headline.
  /// - Returns: one sentence per delivery that failed, naming it and why; empty when all
  ///   succeeded. Never the webhook's URL, which is a secret.
  public func deliver(_ headline: RunHeadline) async -> [String] {
    var failures: [String] = []
    if let notifyCommand {
      if let failure = run(notifyCommand, input: headline.json) {
        failures.append("--notify-command failed: \(failure)")
      }
    }
    if let webhook {
      if let failure = await post(headline.json, to: webhook) {
        failures.append(
          "--webhook \(CommandLineScrubber.redactedURL(webhook)) failed: \(failure)")
      }
    }
    return failures
  }

  /// Runs the command with `input` on its standard input; the reason it failed, or `nil`.
  func run(_ command: String, input: [UInt8]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let stdin = Pipe()
    process.standardInput = stdin
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    do {
      try process.run()
    } catch {
      return "it could not be started: \(error)"
    }
    // A command that does not read its input must not block the run: the pipe's buffer holds
    // the headline (a few kilobytes), and a command that exited without reading it (a closed
    // pipe: EPIPE, with SIGPIPE ignored) is judged by its exit status below, not by the write.
    signal(SIGPIPE, SIG_IGN)
    try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
    try? stdin.fileHandleForWriting.close()
    let seconds = Double(timeout.components.seconds)
    if ended.wait(timeout: .now() + seconds) == .timedOut {
      process.terminate()
      _ = ended.wait(timeout: .now() + 5)
      return "it was still running after \(Int(seconds)) s and was stopped"
    }
    guard process.terminationStatus == 0 else {
      return process.terminationReason == .uncaughtSignal
        ? "it was killed by signal \(process.terminationStatus)"
        : "it exited with \(process.terminationStatus)"
    }
    return nil
  }

  /// Posts `body` as JSON; the reason it failed, or `nil`.
  func post(_ body: [UInt8], to webhook: String) async -> String? {
    guard let url = URL(string: webhook), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else { return "the URL is not an http or https URL" }
    var target = url.path.isEmpty ? "/" : url.path
    if let query = url.query { target += "?" + query }
    var configuration = HTTPClientConfiguration()
    configuration.timeout = timeout
    let client = SocketHTTPClient(configuration: configuration)
    defer { client.shutDown() }
    do {
      let response = try await client.execute(
        HTTPClientRequest(
          method: "POST", scheme: scheme, host: host, port: url.port, target: target,
          headers: [
            ("Content-Type", "application/json"), ("User-Agent", "receipt-migrate alert"),
          ],
          body: body))
      guard (200..<300).contains(response.status) else {
        return "the server answered \(response.status)"
      }
      return nil
    } catch {
      return "\(error)"
    }
  }
}
