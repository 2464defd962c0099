import AppStoreServerAPI
import HTTPServer

/// An App Store Server API endpoint a request path names, with the id in its path.
enum SimulatorRoute: Hashable, Sendable {
  case history(String)
  /// The deprecated `GET /inApps/v1/history/{id}`, still the default of Apple's libraries.
  case historyV1(String)
  case statuses(String)
  case transactionInfo(String)
  case refundHistory(String)
  case orderLookup(String)
  case appTransaction(String)
  case notificationHistory
  case setAppAccountToken(String)
  case requestTestNotification
  case testNotificationStatus(String)

  /// Why a request names no route.
  enum Miss: Error, Hashable, Sendable {
    /// No endpoint has this path.
    case notFound
    /// The path is an endpoint's, the method is not; carries the allowed method.
    case wrongMethod(allowed: HTTPMethod)
  }

  var endpoint: Endpoint {
    switch self {
    case .history, .historyV1: .transactionHistory
    case .statuses: .subscriptionStatuses
    case .transactionInfo: .transactionInfo
    case .refundHistory: .refundHistory
    case .orderLookup: .orderLookup
    case .appTransaction: .appTransactionInfo
    case .notificationHistory: .notificationHistory
    case .setAppAccountToken: .setAppAccountToken
    case .requestTestNotification: .requestTestNotification
    case .testNotificationStatus: .testNotificationStatus
    }
  }

  /// The route of a request, or why there is none.
  static func match(method: HTTPMethod, path: String) -> Result<SimulatorRoute, Miss> {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    guard path.hasPrefix("/"), segments.first == "inApps", segments.count >= 3 else {
      return .failure(.notFound)
    }
    let parts = Array(segments.dropFirst()).map(String.init)
    let route: SimulatorRoute
    let expected: HTTPMethod
    switch parts.count {
    case 3 where parts[0] == "v2" && parts[1] == "history":
      (route, expected) = (.history(parts[2]), .get)
    case 3 where parts[0] == "v1" && parts[1] == "history":
      (route, expected) = (.historyV1(parts[2]), .get)
    case 3 where parts[0] == "v1" && parts[1] == "subscriptions":
      (route, expected) = (.statuses(parts[2]), .get)
    case 3 where parts[0] == "v1" && parts[1] == "lookup":
      (route, expected) = (.orderLookup(parts[2]), .get)
    case 3 where parts[0] == "v1" && parts[1] == "notifications" && parts[2] == "history":
      (route, expected) = (.notificationHistory, .post)
    case 3 where parts[0] == "v1" && parts[1] == "notifications" && parts[2] == "test":
      (route, expected) = (.requestTestNotification, .post)
    case 4 where parts[0] == "v1" && parts[1] == "notifications" && parts[2] == "test":
      (route, expected) = (.testNotificationStatus(parts[3]), .get)
    case 3 where parts[0] == "v1" && parts[1] == "transactions":
      (route, expected) = (.transactionInfo(parts[2]), .get)
    case 4 where parts[0] == "v1" && parts[1] == "transactions" && parts[2] == "appTransactions":
      (route, expected) = (.appTransaction(parts[3]), .get)
    case 4 where parts[0] == "v1" && parts[1] == "transactions" && parts[3] == "appAccountToken":
      (route, expected) = (.setAppAccountToken(parts[2]), .put)
    case 4 where parts[0] == "v2" && parts[1] == "refund" && parts[2] == "lookup":
      (route, expected) = (.refundHistory(parts[3]), .get)
    default:
      return .failure(.notFound)
    }
    // HEAD is answered like GET by the HTTP server (headers only).
    guard method == expected || (expected == .get && method == .head) else {
      return .failure(.wrongMethod(allowed: expected))
    }
    return .success(route)
  }
}
