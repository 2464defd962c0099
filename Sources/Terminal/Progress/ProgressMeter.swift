import Synchronization

/// Shows the progress of one long stage: a live line on a terminal, periodic log lines
/// otherwise.
///
/// Workers report what they finish from any task; the meter decides when to draw. On a
/// terminal it rewrites one line in place at most every `refreshInterval` (a tenth of a second
/// by default); elsewhere it writes a plain line every `interval` (ten seconds by default), so
/// a log file gets a readable history rather than thousands of updates.
///
/// ```swift
/// let meter = ProgressMeter(
///   stage: "backfill", unit: "customers", total: 20_000,
///   counters: ["429s", "retries", "failures"],
///   style: .automatic(for: .detect()))
/// meter.advance()                  // from any task
/// meter.increment("429s")
/// meter.finish()
/// ```
///
/// Output is written while the meter's lock is held, so lines never interleave; the `write`
/// closure must therefore not call back into the meter.
public final class ProgressMeter: Sendable {
  /// How progress is shown.
  public enum Style: Sendable, Equatable {
    /// One line on a terminal `width` columns wide, rewritten at most every
    /// `refreshInterval`.
    case live(width: Int, refreshInterval: Duration = .milliseconds(100))
    /// A plain line every `interval`, for logs and pipes.
    case log(interval: Duration = .seconds(10))

    /// A live line on a terminal, log lines otherwise.
    ///
    /// - Parameters:
    ///   - capabilities: The output stream's capabilities.
    ///   - logInterval: The time between log lines when the output is not a terminal.
    /// - Returns: The style that suits the stream.
    public static func automatic(
      for capabilities: TerminalCapabilities,
      logInterval: Duration = .seconds(10)
    ) -> Style {
      capabilities.isTerminal ? .live(width: capabilities.width) : .log(interval: logInterval)
    }
  }

  private struct State {
    var completed = 0
    var total: Int?
    var counters: [ProgressCounter]
    var window: RateWindow
    /// When a line was last drawn; `nil` before the first live line.
    var lastDrawn: ContinuousClock.Instant?
    /// Whether a live line is on screen, so that a log message must clear it first.
    var liveLineShown = false
    var isFinished = false
  }

  private let stage: String
  private let unit: String
  private let style: Style
  private let started: ContinuousClock.Instant
  private let now: @Sendable () -> ContinuousClock.Instant
  private let write: @Sendable (String) -> Void
  private let state: Mutex<State>

  /// Creates a meter and starts its clock.
  ///
  /// - Parameters:
  ///   - stage: The stage's name, such as `backfill`.
  ///   - unit: What is counted, such as `customers`.
  ///   - total: How many items there are, when known; without it there is no percentage or
  ///     ETA.
  ///   - counters: Counters shown from the start, even at zero, in this order.
  ///   - style: How progress is shown; see ``Style/automatic(for:logInterval:)``.
  ///   - rateWindow: How far back the rate (and so the ETA) looks.
  ///   - now: The clock; tests pass a fake one.
  ///   - write: Where text goes; standard error by default.
  public init(
    stage: String,
    unit: String = "items",
    total: Int? = nil,
    counters: [String] = [],
    style: Style,
    rateWindow: Duration = .seconds(10),
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    write: @escaping @Sendable (String) -> Void = { StandardError.write($0) }
  ) {
    let started = now()
    self.stage = stage
    self.unit = unit
    self.style = style
    self.started = started
    self.now = now
    self.write = write
    var initial = State(
      counters: counters.map { ProgressCounter(name: $0, value: 0) },
      window: RateWindow(span: rateWindow, start: started))
    initial.total = total
    if case .log = style {
      // The first log line comes one interval after the start, not immediately.
      initial.lastDrawn = started
    }
    self.state = Mutex(initial)
  }

  // MARK: - Reporting

  /// Counts finished items.
  ///
  /// - Parameter count: How many items were finished.
  public func advance(by count: Int = 1) {
    update { state, time in
      state.completed += count
      state.window.record(state.completed, at: time)
    }
  }

  /// Adds to a named counter, which is appended to the line on first use if it was not
  /// declared.
  ///
  /// - Parameters:
  ///   - counter: The counter's name, such as `retries`.
  ///   - amount: How much to add.
  public func increment(_ counter: String, by amount: Int = 1) {
    update { state, _ in
      if let index = state.counters.firstIndex(where: { $0.name == counter }) {
        state.counters[index].value += amount
      } else {
        state.counters.append(ProgressCounter(name: counter, value: amount))
      }
    }
  }

  /// Sets the number of items, once it is known or when it changes.
  ///
  /// - Parameter total: The number of items; `nil` when unknown.
  public func setTotal(_ total: Int?) {
    update { state, _ in state.total = total }
  }

  /// Draws if a line is due; call it while waiting, so that the line keeps moving (and the
  /// rate falls) when no item finishes.
  public func refresh() {
    update { _, _ in }
  }

  /// Writes a message on its own line without breaking the live line, which is drawn again
  /// below it.
  ///
  /// - Parameter message: The message, without a trailing newline.
  public func log(_ message: String) {
    state.withLock { state in
      let time = now()
      guard case .live(let width, _) = style, state.liveLineShown, !state.isFinished else {
        write(message + "\n")
        return
      }
      write("\r\u{1B}[K" + message + "\n")
      write("\r" + ProgressLine.live(snapshot(of: state, at: time), width: width) + "\u{1B}[K")
      state.lastDrawn = time
    }
  }

  /// Writes the final line: on a terminal it replaces the live line and ends it; in a log it
  /// is one more line. Later calls do nothing.
  public func finish() {
    state.withLock { state in
      guard !state.isFinished else { return }
      state.isFinished = true
      let snapshot = snapshot(of: state, at: now())
      switch style {
      case .live(let width, _):
        write("\r" + ProgressLine.liveSummary(snapshot, width: width) + "\u{1B}[K\n")
      case .log:
        write(ProgressLine.logSummary(snapshot) + "\n")
      }
    }
  }

  /// The current figures.
  public var snapshot: ProgressSnapshot {
    state.withLock { snapshot(of: $0, at: now()) }
  }

  // MARK: - Drawing

  /// Applies `change`, then draws if the style's interval has passed since the last line.
  private func update(_ change: (inout State, ContinuousClock.Instant) -> Void) {
    state.withLock { state in
      let time = now()
      change(&state, time)
      guard !state.isFinished else { return }
      switch style {
      case .live(let width, let refreshInterval):
        if let last = state.lastDrawn, time - last < refreshInterval {
          return
        }
        write("\r" + ProgressLine.live(snapshot(of: state, at: time), width: width) + "\u{1B}[K")
        state.liveLineShown = true
      case .log(let interval):
        if let last = state.lastDrawn, time - last < interval {
          return
        }
        write(ProgressLine.log(snapshot(of: state, at: time)) + "\n")
      }
      state.lastDrawn = time
    }
  }

  private func snapshot(of state: State, at time: ContinuousClock.Instant) -> ProgressSnapshot {
    ProgressSnapshot(
      stage: stage,
      unit: unit,
      completed: state.completed,
      total: state.total,
      counters: state.counters,
      elapsed: time - started,
      recentRate: state.window.rate(at: time, count: state.completed))
  }
}
