import AppStoreServerAPI
import Chronology
import MigrationReports
import MigrationStore

// MARK: - The rolling sweep

extension RefreshStage {
  /// Makes due every customer of an environment whose App Store data is older than
  /// `--max-data-age`, oldest first: the feed cannot vouch for the time since. A customer's data
  /// holds through its fetch, or through the environment's watermark when that is later (a
  /// night whose feed vouched for it) — exactly what the comparison reads it by — so a night
  /// whose feed cannot vouch asks again only whom the comparison could no longer read, and a
  /// passing failure of the feed costs nothing while the last vouched night is younger than the
  /// bound. What the budget does not reach stays due, and its accounts are
  /// `stale_app_store_data`; younger data is read as of the instant it holds through, which the
  /// report's data age states.
  ///
  /// - Parameters:
  ///   - environment: the environment.
  ///   - reason: why the feed cannot vouch, for the queue's detail.
  ///   - clock: the App Store's clock.
  /// - Returns: how many customers it made due that were not due already.
  func sweep(_ environment: String, because reason: String, clock: Timestamp) throws -> Int {
    let bound = clock.millisecondsSince1970 - options.maxDataAgeMilliseconds
    let age = AuditFormatting.age(milliseconds: options.maxDataAgeMilliseconds)
    // While the watermark is younger than the bound, only data of an unrecorded fetch (which
    // the watermark cannot vouch for) is older than it.
    let watermark = try store.notificationFeed(environment: environment)?.watermarkMilliseconds
    let fetchedBefore = (watermark ?? .min) >= bound ? Int64.min : bound
    return try store.writeTransaction {
      var added = 0
      for (customerId, fetched) in try store.customersFetched(
        environment: environment, before: fetchedBefore)
      {
        let data =
          fetched.map { "its data of \(Self.day($0))" } ?? "its data (of an unrecorded date)"
        let isNew = try store.enqueueRefresh(
          RefreshQueueRow(
            customerId: customerId, reason: .sweep,
            detail: "\(data) is older than --max-data-age (\(age)) and \(reason)",
            dataMilliseconds: fetched),
          now: now().millisecondsSince1970)
        if isNew { added += 1 }
      }
      return added
    }
  }
}
