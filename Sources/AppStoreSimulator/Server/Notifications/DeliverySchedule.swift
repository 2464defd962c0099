import AppStoreServerAPI
import Chronology

/// When Apple tries to deliver a notification, and what the simulated team's server answers.
///
/// In production a notification whose delivery fails is retried up to five more times, 1, 12,
/// 24, 48 and 72 hours after the previous attempt (about 157 hours in all); the sandbox tries
/// once. A later attempt may succeed.
struct DeliverySchedule: Sendable {
  /// The hours between one attempt and the next, in production.
  static let retryHours: [Int64] = [1, 12, 24, 48, 72]

  /// The instants Apple attempts a notification first sent at `date`: the first, then the
  /// retries of production (none in sandbox).
  static func attemptInstants(from date: Timestamp, in environment: SimulatedEnvironment)
    -> [Timestamp]
  {
    var instants = [date]
    guard environment == .production else { return instants }
    var last = date
    for hours in retryHours {
      last = last.adding(milliseconds: hours * Timestamp.millisecondsPerHour)
      instants.append(last)
    }
    return instants
  }

  /// The delivery attempts of a notification made by `now`. One that did not fail succeeds at
  /// once; a failed one fails each attempt until `record.deliveredOnAttempt`, which succeeds
  /// (never, when `nil`).
  static func attempts(
    of record: NotificationRecord, in environment: SimulatedEnvironment,
    now: Timestamp
  ) -> [SendAttempt] {
    guard record.failed else {
      return [SendAttempt(attemptDate: record.date, sendAttemptResult: .success)]
    }
    let failures: [SendAttemptResult] = [.timedOut, .unsuccessfulHttpResponseCode, .noResponse]
    var attempts: [SendAttempt] = []
    for (number, instant) in attemptInstants(from: record.date, in: environment).enumerated()
    where instant <= now {
      if number == record.deliveredOnAttempt {
        attempts.append(SendAttempt(attemptDate: instant, sendAttemptResult: .success))
        break
      }
      attempts.append(
        SendAttempt(attemptDate: instant, sendAttemptResult: failures[number % failures.count]))
    }
    return attempts
  }

  /// Whether no attempt made by `now` succeeded: what `onlyFailures` lists.
  static func isUndelivered(
    _ record: NotificationRecord, in environment: SimulatedEnvironment,
    now: Timestamp
  ) -> Bool {
    !attempts(of: record, in: environment, now: now).contains { $0.sendAttemptResult == .success }
  }
}
