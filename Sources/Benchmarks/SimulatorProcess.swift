import AppStoreServerAPI
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `receipt-migrate simulator serve` in a child process: started, read until its banner says it
/// serves, and stopped with SIGTERM, which makes it print what it answered. Its memory and CPU
/// time are measured from outside (`wait4`), so a benchmark's own figures stay its own.
///
/// Thread safety: the process id and the pipe are owned by the mutex; ``stop()`` may be called
/// from any thread, and more than once.
public final class SimulatorProcess: Sendable {
  /// What a stopped simulator reported.
  public struct Outcome: Sendable {
    /// Requests answered, by environment (`Production`, `Sandbox`) and endpoint.
    public var requests: [Key: Int]
    /// Answers by environment, endpoint and HTTP status.
    public var statuses: [Key: [Int: Int]]
    /// The exit status (or 128 + signal).
    public var status: Int32
    /// Peak resident set size in bytes.
    public var peakResidentBytes: Int64
    /// User plus system CPU seconds the child used.
    public var cpuSeconds: Double

    /// Requests answered in every environment and endpoint.
    public var totalRequests: Int { requests.values.reduce(0, +) }
  }

  /// An environment and an endpoint, as the simulator's summary names them.
  public struct Key: Sendable, Hashable, Comparable {
    /// `Production` or `Sandbox`.
    public var environment: String
    /// The endpoint, such as `transaction_history`.
    public var endpoint: String

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - environment: the environment.
    ///   - endpoint: the endpoint.
    public init(environment: String, endpoint: String) {
      self.environment = environment
      self.endpoint = endpoint
    }

    /// Orders by environment (production first), then endpoint.
    ///
    /// - Parameters:
    ///   - lhs: a key.
    ///   - rhs: another key.
    /// - Returns: whether `lhs` comes first.
    public static func < (lhs: Key, rhs: Key) -> Bool {
      // Bool is not Comparable; 0 sorts production first.
      (lhs.environment == "Production" ? 0 : 1, lhs.environment, lhs.endpoint) < (
        rhs.environment == "Production" ? 0 : 1, rhs.environment, rhs.endpoint
      )
    }
  }

  /// Why the simulator could not be started or read.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String
  }

  private struct State: ~Copyable {
    var pid: pid_t?
    var reader: LineReader
    var outcome: Outcome?
  }

  /// The client settings the banner gives (`APP_STORE_PRODUCTION_URL`, `ASC_KEY_ID`, …), for
  /// `LookupSettings.read(from:)`.
  public let clientVariables: [String: String]
  private let state: Mutex<State>

  private init(pid: pid_t, reader: consuming LineReader, clientVariables: [String: String]) {
    self.clientVariables = clientVariables
    state = Mutex(State(pid: pid, reader: reader))
  }

  /// The banner line that says the server is listening.
  static let readyLine = "Serving; stop with Ctrl-C."

  /// The variables the banner's `export` line sets.
  static let bannerVariables = [
    LookupSettings.Variable.productionURL, LookupSettings.Variable.sandboxURL,
    LookupSettings.Variable.rootCertificates, APICredentials.Variable.issuerId,
    APICredentials.Variable.keyId, APICredentials.Variable.privateKeyPath,
    APICredentials.Variable.bundleId, APICredentials.Variable.appAppleId,
    LookupSettings.Variable.clock,
  ]

  /// Starts `executable simulator serve arguments…` and waits until it listens.
  ///
  /// It blocks the calling thread while the child reads its world (seconds for a large one):
  /// a benchmark does nothing else meanwhile.
  ///
  /// - Parameters:
  ///   - executable: the `receipt-migrate` binary.
  ///   - arguments: the arguments after `simulator serve`.
  /// - Returns: the running simulator; call ``stop()`` when done.
  /// - Throws: ``Failure`` when it cannot start or exits before it is ready.
  public static func start(executable: String, arguments: [String]) throws -> SimulatorProcess {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      throw Failure(description: "cannot make a pipe for the simulator: errno \(errno)")
    }
    // Neither end leaks into the child but as its standard output.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    let argv = ([executable, "simulator", "serve"] + arguments).map { strdup($0) } + [nil]
    defer {
      for argument in argv { free(argument) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(ends[1])
    guard result == 0 else {
      close(ends[0])
      throw Failure(description: "cannot start \(executable): errno \(result)")
    }
    var reader = LineReader(descriptor: ends[0])
    var variables: [String: String] = [:]
    while let line = reader.nextLine() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("export ") {
        variables = exportedVariables(String(trimmed.dropFirst("export ".count)))
      }
      if trimmed == readyLine {
        return SimulatorProcess(pid: pid, reader: reader, clientVariables: variables)
      }
    }
    reader.close()
    let status = ChildProcess.wait(for: pid).status
    throw Failure(
      description: "the simulator exited with status \(status) before it was ready; its error is "
        + "above, or run \(executable) simulator serve \(arguments.joined(separator: " "))")
  }

  /// The simulator's resident memory now and at its peak so far, while it runs.
  ///
  /// - Returns: the figures, or `nil` once it has stopped (or without procfs).
  public func memory() -> ProcessMemory? {
    guard let pid = state.withLock({ $0.pid }) else { return nil }
    return ProcessMemory.of(pid: pid)
  }

  /// Stops the simulator with SIGTERM and reads its summary. Later calls return the same outcome.
  ///
  /// - Returns: what it answered, and its memory and CPU time.
  /// - Throws: ``Failure`` when the summary cannot be read.
  @discardableResult
  public func stop() throws -> Outcome {
    try state.withLock { state in
      if let outcome = state.outcome { return outcome }
      guard let pid = state.pid else {
        throw Failure(description: "the simulator was stopped without a summary")
      }
      kill(pid, SIGTERM)
      var lines: [String] = []
      while let line = state.reader.nextLine() { lines.append(line) }
      state.reader.close()
      let (status, usage) = ChildProcess.wait(for: pid)
      state.pid = nil
      var outcome = try Self.summary(lines)
      outcome.status = status
      outcome.peakResidentBytes = usage.peakResidentBytes
      outcome.cpuSeconds = usage.cpuSeconds
      state.outcome = outcome
      return outcome
    }
  }

  deinit {
    // A benchmark that failed half-way must not leave a server behind.
    state.withLock { state in
      guard let pid = state.pid else { return }
      kill(pid, SIGKILL)
      state.reader.close()
      _ = ChildProcess.wait(for: pid)
    }
  }

  // MARK: - Reading the child

  /// The `NAME=value` pairs of the banner's export line. Values are not quoted there, so a value
  /// runs up to the next known name: paths with spaces survive.
  static func exportedVariables(_ text: String) -> [String: String] {
    var starts: [(name: String, range: Range<String.Index>)] = []
    for name in bannerVariables {
      var searchFrom = text.startIndex
      while let found = text.range(of: "\(name)=", range: searchFrom..<text.endIndex) {
        let atWordStart =
          found.lowerBound == text.startIndex
          || text[text.index(before: found.lowerBound)] == " "
        if atWordStart {
          starts.append((name, found))
          break
        }
        searchFrom = found.upperBound
      }
    }
    starts.sort { $0.range.lowerBound < $1.range.lowerBound }
    var variables: [String: String] = [:]
    for (offset, start) in starts.enumerated() {
      let end = offset + 1 < starts.count ? starts[offset + 1].range.lowerBound : text.endIndex
      variables[start.name] = text[start.range.upperBound..<end]
        .trimmingCharacters(in: .whitespaces)
    }
    return variables
  }

  /// Reads the summary `simulator serve` prints when it stops:
  /// `Answered 12 requests.` then lines like `  Production transaction_history: 10 (200×9, 404×1)`.
  static func summary(_ lines: [String]) throws -> Outcome {
    var outcome = Outcome(
      requests: [:], statuses: [:], status: 0, peakResidentBytes: 0, cpuSeconds: 0)
    var announced: Int?
    for line in lines {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("Answered "), trimmed.hasSuffix(" requests.") {
        announced = Int(trimmed.dropFirst("Answered ".count).dropLast(" requests.".count))
        continue
      }
      guard announced != nil, let colon = trimmed.range(of: ": ") else { continue }
      let names = trimmed[..<colon.lowerBound].split(separator: " ", maxSplits: 1)
      let counts = trimmed[colon.upperBound...]
      guard names.count == 2,
        let count = Int(counts.prefix { $0.isNumber })
      else { continue }
      let key = Key(environment: String(names[0]), endpoint: String(names[1]))
      outcome.requests[key, default: 0] += count
      if let open = counts.firstIndex(of: "("), let shut = counts.lastIndex(of: ")"), open < shut {
        for item in counts[counts.index(after: open)..<shut].split(separator: ",") {
          let parts = item.trimmingCharacters(in: .whitespaces).split(separator: "×")
          if parts.count == 2, let status = Int(parts[0]), let answers = Int(parts[1]) {
            outcome.statuses[key, default: [:]][status, default: 0] += answers
          }
        }
      }
    }
    guard let announced else {
      throw Failure(
        description: "the simulator stopped without printing what it answered (\(lines.count) "
          + "lines of output)")
    }
    guard announced == outcome.totalRequests else {
      throw Failure(
        description: "the simulator's summary announces \(announced) requests but its lines add "
          + "up to \(outcome.totalRequests); has the format of simulator serve's summary changed?")
    }
    return outcome
  }
}
