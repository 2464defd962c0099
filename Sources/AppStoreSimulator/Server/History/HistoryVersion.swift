/// The version of the Get Transaction History endpoint a request names.
///
/// Apple deprecated v1 but its libraries still call it by default, so the simulator serves both.
enum HistoryVersion: Hashable, Sendable {
  /// `GET /inApps/v1/history/{id}`: finished consumables are left out unless revoked.
  case v1
  /// `GET /inApps/v2/history/{id}`: every transaction, consumables included.
  case v2
}
