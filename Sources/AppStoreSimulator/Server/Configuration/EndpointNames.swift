import AppStoreServerAPI

/// The short endpoint names used in fault, latency and rate-limit specifications
/// (`history:drop=0.05`), next to the client's own `Endpoint` raw values.
enum EndpointNames {
  /// Every accepted spelling and its endpoint.
  static let byName: [String: Endpoint] = {
    var names: [String: Endpoint] = [
      "history": .transactionHistory,
      "status": .subscriptionStatuses,
      "statuses": .subscriptionStatuses,
      "transaction": .transactionInfo,
      "transaction-info": .transactionInfo,
      "refund": .refundHistory,
      "refunds": .refundHistory,
      "order": .orderLookup,
      "order-lookup": .orderLookup,
      "app-transaction": .appTransactionInfo,
      "notifications": .notificationHistory,
      "notification-history": .notificationHistory,
      "app-account-token": .setAppAccountToken,
      "test-notification": .requestTestNotification,
      "test-status": .testNotificationStatus,
    ]
    for endpoint in Endpoint.allCases { names[endpoint.rawValue] = endpoint }
    return names
  }()

  /// The short name of each endpoint, for messages and logs.
  static func shortName(_ endpoint: Endpoint) -> String {
    switch endpoint {
    case .transactionHistory: "history"
    case .subscriptionStatuses: "status"
    case .transactionInfo: "transaction"
    case .refundHistory: "refund"
    case .orderLookup: "order"
    case .appTransactionInfo: "app-transaction"
    case .notificationHistory: "notifications"
    case .setAppAccountToken: "app-account-token"
    case .requestTestNotification: "test-notification"
    case .testNotificationStatus: "test-status"
    }
  }

  /// The endpoint a specification names, or an error listing the names.
  static func endpoint(named name: String, in specification: String)
    throws(SimulatorSpecificationError) -> Endpoint
  {
    guard let endpoint = byName[name.lowercased()] else {
      let known = Endpoint.allCases.map(shortName).joined(separator: ", ")
      throw SimulatorSpecificationError(
        "\"\(name)\" in \"\(specification)\" is not an endpoint; use one of \(known), or leave "
          + "the endpoint out to mean all of them")
    }
    return endpoint
  }
}
