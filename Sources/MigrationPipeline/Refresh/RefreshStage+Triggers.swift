import Chronology
import MigrationStore

// MARK: - Local triggers

extension RefreshStage {
  /// Queues every customer whose stored data has run out by the App Store's clock (an active
  /// status past its expiry, a grace period past its end) or is in billing retry (a recovery
  /// would restore access at any moment) and was not fetched by this run.
  ///
  /// - Parameter clock: the App Store's clock.
  func enqueueLocalTriggers(clock: Timestamp) throws {
    let now = clock.millisecondsSince1970
    try store.writeTransaction {
      for state in try store.timeBoundedStatuses() {
        let product = state.productId ?? "a subscription"
        let said =
          "the App Store said on "
          + (state.signedMilliseconds.map {
            String(Timestamp(millisecondsSince1970: $0).iso8601.prefix(10))
          } ?? "an unknown date")
        let row: RefreshQueueRow
        switch state.status {
        case 1:
          guard let expires = state.expiresMilliseconds, expires <= now else { continue }
          row = RefreshQueueRow(
            customerId: state.customerId, reason: .ranOut,
            detail: "\(said) that \(product) was active until \(Self.day(expires))",
            dataMilliseconds: state.signedMilliseconds)
        case 4:
          guard let grace = state.gracePeriodExpiresMilliseconds, grace <= now else { continue }
          row = RefreshQueueRow(
            customerId: state.customerId, reason: .ranOut,
            detail:
              "\(said) that \(product) was in its billing grace period until \(Self.day(grace))",
            dataMilliseconds: state.signedMilliseconds)
        case 3:
          // Billing retry has no end the data knows; it is due once per run, unless this run
          // fetched it.
          if let fresh = freshSince?.millisecondsSince1970,
            (state.signedMilliseconds ?? .min) >= fresh
          {
            continue
          }
          row = RefreshQueueRow(
            customerId: state.customerId, reason: .billingRetry,
            detail: "\(said) that \(product) was in billing retry",
            dataMilliseconds: state.signedMilliseconds)
        default:
          continue
        }
        try store.enqueueRefresh(row, now: self.now().millisecondsSince1970)
      }
    }
  }

  static func day(_ milliseconds: Int64) -> String {
    String(Timestamp(millisecondsSince1970: milliseconds).iso8601.prefix(10))
  }
}
