/// Receives progress from long-running stages. The command line turns it into a live line on a
/// terminal or periodic log lines; tests record it. Calls may come from several tasks at once.
public protocol ProgressObserver: Sendable {
  /// A stage began.
  ///
  /// - Parameters:
  ///   - stage: the stage's name, such as `ingest`.
  ///   - unit: what is counted, such as `MB` or `customers`.
  ///   - total: how many units there are, when known.
  func stageStarted(_ stage: String, unit: String, total: Int64?)

  /// Units of work were completed.
  ///
  /// - Parameters:
  ///   - stage: the stage.
  ///   - units: how many more units are done.
  func advanced(_ stage: String, by units: Int64)

  /// A named counter (quarantined, retries, 429s, failures) went up.
  ///
  /// - Parameters:
  ///   - stage: the stage.
  ///   - counter: the counter's name.
  ///   - amount: by how much.
  func counted(_ stage: String, _ counter: String, by amount: Int64)

  /// A stage ended.
  ///
  /// - Parameter stage: the stage.
  func stageFinished(_ stage: String)
}
