import Foundation

/// What the simulated app configured in App Store Connect as its notification URL for one
/// environment — which decides what Apple's notification history lists.
public enum NotificationURL: String, Sendable, Hashable, CaseIterable {
  /// A version 2 URL: the history lists every notification Apple sends, a test notification
  /// included.
  case version2 = "v2"
  /// Only a version 1 URL: Apple sends there, and a test notification too (`TEST` goes to either
  /// version), but the history, which lists version 2 notifications only, lists none.
  case version1 = "v1"
  /// No URL: a test notification is refused with `4040007` and the history lists none — an empty
  /// feed that looks exactly like "nothing changed".
  case none

  /// Whether the notification history lists what Apple sends.
  var listsHistory: Bool { self == .version2 }
}

extension NotificationURL {
  /// Reads a `--notification-url` specification: `v2`, `v1` or `none` for both environments, or
  /// comma-separated `production=…` and `sandbox=…` items.
  ///
  /// - Parameter specification: the text.
  /// - Returns: the URL of each environment named (an environment not named keeps version 2).
  /// - Throws: `SimulatorSpecificationError` naming the item that cannot be read.
  public static func parse(_ specification: String) throws(SimulatorSpecificationError)
    -> [SimulatedEnvironment: NotificationURL]
  {
    let names = allCases.map(\.rawValue).joined(separator: ", ")
    if let both = NotificationURL(rawValue: specification.lowercased()) {
      return [.production: both, .sandbox: both]
    }
    var urls: [SimulatedEnvironment: NotificationURL] = [:]
    for item in specification.split(separator: ",") {
      let parts = item.split(separator: "=").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      guard parts.count == 2,
        let environment = SimulatedEnvironment.allCases.first(where: {
          $0.rawValue.lowercased() == parts[0]
        }), let url = NotificationURL(rawValue: parts[1])
      else {
        throw SimulatorSpecificationError(
          "\"\(item)\" in the notification URL \"\(specification)\" cannot be read; write one of "
            + "\(names) for both environments, or production=… and sandbox=… separated by commas")
      }
      urls[environment] = url
    }
    return urls
  }
}
