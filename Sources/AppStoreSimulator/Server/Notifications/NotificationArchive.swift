import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import Synchronization

/// The notification history of each environment: derived from the world on first use (every
/// known customer's `NotificationTimeline`), then kept, with each notification signed once.
final class NotificationArchive: Sendable {
  private let failureRate: Double
  private let lateDeliveryShare: Double
  private let omissionRate: Double
  private let seed: UInt64
  private let records = Mutex<[SimulatedEnvironment: [NotificationRecord]]>([:])
  private let signedPayloads: SignedValueCache<NotificationPayload>

  /// - Parameters:
  ///   - failureRate: the share of notifications whose first delivery fails.
  ///   - lateDeliveryShare: the share of those a later (production) attempt delivers.
  ///   - omissionRate: the share the history leaves out.
  init(
    failureRate: Double, lateDeliveryShare: Double, omissionRate: Double, seed: UInt64,
    cacheLimit: Int
  ) {
    self.failureRate = failureRate
    self.lateDeliveryShare = lateDeliveryShare
    self.omissionRate = omissionRate
    self.seed = seed
    signedPayloads = SignedValueCache(limit: cacheLimit)
  }

  /// Every notification of `environment`, in time order (ties by UUID).
  ///
  /// - Throws: ``WorldFileError`` when the world file changed since the server started.
  func records(in environment: SimulatedEnvironment, state: SimulatorState) throws
    -> [NotificationRecord]
  {
    try records.withLock { cache in
      if let known = cache[environment] { return known }
      var all: [NotificationRecord] = []
      try state.forEachCustomer { position, customer in
        guard state.isKnown(position, in: environment) else { return }
        let timeline = NotificationTimeline(
          customer: customer, position: position, now: state.now, products: state.products)
        for (offset, var record) in timeline.records().enumerated() {
          record.uuid = Self.uuid(seed: seed, customer: customer.appTransactionId, offset: offset)
          record.failed = Self.unit(record.uuid) < failureRate
          if record.failed, environment == .production,
            Self.unit(record.uuid, salt: "late") < lateDeliveryShare
          {
            // One of the five retries succeeds.
            record.deliveredOnAttempt =
              1 + Int(Self.unit(record.uuid, salt: "attempt") * 5)
              % DeliverySchedule.retryHours.count
          }
          record.omitted = Self.unit(record.uuid, salt: "omitted") < omissionRate
          all.append(record)
        }
      }
      all.sort { ($0.date, $0.uuid) < ($1.date, $1.uuid) }
      cache[environment] = all
      return all
    }
  }

  /// The signed payload of a notification: its transaction and renewal information as they
  /// stood at its date, all signed at that date.
  ///
  /// - Parameter customer: the notification's customer as generated — a notification is signed
  ///   once, when it is sent: a token set later must not reach back into it, whenever the
  ///   history happens to be read.
  func payload(
    of record: NotificationRecord, customer: Customer, factory: PayloadFactory,
    signed: SignedValues
  ) throws(CryptoError) -> Verified<NotificationPayload> {
    try signedPayloads.value(for: .init(id: record.uuid, version: 0)) {
      () throws(CryptoError) in
      var data = NotificationData(
        appAppleId: factory.appAppleId, bundleId: factory.bundleId,
        bundleVersion: PayloadFactory.applicationVersion, environment: factory.environment)
      if let transaction = customer.transactions.first(where: {
        $0.transactionId == record.transactionId
      }) {
        data.signedTransactionInfo = try signed.sign(
          factory.transaction(transaction, of: customer, at: record.date, signedDate: record.date)
        ).jws
      }
      if let original = record.originalTransactionId {
        if let renewal = factory.renewalInfo(
          originalTransactionId: original, of: customer, at: record.date, signedDate: record.date)
        {
          data.signedRenewalInfo = try signed.sign(renewal).jws
        }
        data.status = customer.subscriptionStatus(originalTransactionId: original, at: record.date)
          .map { SubscriptionStatus(rawValue: Int64($0.status.serverAPIStatus)) }
      }
      return try signed.sign(
        NotificationPayload(
          notificationType: record.type, subtype: record.subtype, notificationUUID: record.uuid,
          version: "2.0", signedDate: record.date, data: data))
    }
  }

  /// The signed `TEST` notification of a test, signed at the instant it was sent.
  func payload(of test: TestNotifications.Test, factory: PayloadFactory, signed: SignedValues)
    throws(CryptoError) -> Verified<NotificationPayload>
  {
    try signedPayloads.value(for: .init(id: test.uuid, version: 0)) { () throws(CryptoError) in
      try signed.sign(
        NotificationPayload(
          notificationType: .test, notificationUUID: test.uuid, version: "2.0",
          signedDate: test.date,
          data: NotificationData(
            appAppleId: factory.appAppleId, bundleId: factory.bundleId,
            bundleVersion: PayloadFactory.applicationVersion, environment: factory.environment)))
    }
  }

  /// A stable UUID-shaped id from the world's seed, the customer and the event's position.
  static func uuid(seed: UInt64, customer: String, offset: Int) -> String {
    let hex = Array(SHA256.hexDigest("\(seed)/\(customer)/\(offset)".utf8).prefix(32))
    let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
    return groups.joined(separator: "-")
  }

  /// A number in `0..<1` drawn from a UUID, to decide failures reproducibly.
  private static func unit(_ uuid: String) -> Double {
    let digits = uuid.replacingOccurrences(of: "-", with: "").suffix(12)
    return Double(UInt64(digits, radix: 16) ?? 0) / Double(UInt64(1) << 48)
  }

  /// Another number in `0..<1` drawn from a UUID, independent of ``unit(_:)`` for each salt.
  private static func unit(_ uuid: String, salt: String) -> Double {
    let digits = SHA256.hexDigest("\(salt)/\(uuid)".utf8).prefix(12)
    return Double(UInt64(String(digits), radix: 16) ?? 0) / Double(UInt64(1) << 48)
  }
}
