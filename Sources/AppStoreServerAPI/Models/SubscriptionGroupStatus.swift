import JSON

/// The statuses of one subscription group: one entry per original transaction (an own purchase
/// and a family-shared one, or an old subscription and a new one).
public struct SubscriptionGroupStatus: Sendable, Hashable {
  /// The group's identifier.
  public var subscriptionGroupIdentifier: String
  /// One status per original transaction.
  public var lastTransactions: [LastTransactionStatus]

  /// A group from its parts.
  ///
  /// - Parameters:
  ///   - subscriptionGroupIdentifier: The group.
  ///   - lastTransactions: The statuses.
  public init(subscriptionGroupIdentifier: String, lastTransactions: [LastTransactionStatus]) {
    self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
    self.lastTransactions = lastTransactions
  }

  /// Writes the group as the API sends it.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
    writer.key("lastTransactions")
    writer.beginArray()
    for entry in lastTransactions { entry.write(to: &writer) }
    writer.endArray()
    writer.endObject()
  }
}
