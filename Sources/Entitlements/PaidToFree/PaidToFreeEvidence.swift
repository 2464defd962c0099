/// The evidence for a paid-to-free grant: apps that were once paid and then free often grant
/// their earlier buyers what later customers pay for, keyed on the app version the customer
/// first got — the legacy receipt's `original_application_version`, and the App Store's
/// `originalApplicationVersion` in the app transaction.
///
/// Which versions were paid is the team's own rule, which the tool cannot know, so the two
/// values are compared as evidence and not turned into a category: the finding says, for each
/// customer whose app transaction names a version, whether it is the version the legacy receipt
/// names. A difference means a grant keyed on the value would change in the migration.
enum PaidToFreeEvidence {
  /// The `original_application_version` of each evaluated response, newest first, without
  /// repeats.
  ///
  /// - Parameter responses: the responses the old side was evaluated on.
  /// - Returns: the versions.
  static func legacyVersions(of responses: [AccountInput.Response]) -> [String] {
    var versions: [String] = []
    for response in responses.sorted(by: {
      ($0.capturedAt ?? .distantPast) > ($1.capturedAt ?? .distantPast)
    }) {
      guard let version = response.response.receipt?.originalApplicationVersion,
        !version.isEmpty, !versions.contains(version)
      else { continue }
      versions.append(version)
    }
    return versions
  }

  /// The secondary finding when an app transaction names an original application version the
  /// legacy receipts do not, or `nil`.
  ///
  /// - Parameters:
  ///   - legacy: the legacy receipts' versions.
  ///   - customers: the account's customers.
  /// - Returns: the sentence.
  static func finding(legacy: [String], customers: [AccountInput.Customer]) -> String? {
    guard !legacy.isEmpty else { return nil }
    let differing = customers.compactMap { customer -> String? in
      guard let version = customer.originalApplicationVersion, !legacy.contains(version) else {
        return nil
      }
      return "customer \(customer.key) \(version)"
    }
    guard !differing.isEmpty else { return nil }
    return "original application version differs: the legacy receipt says "
      + legacy.joined(separator: ", ") + ", the App Store's app transaction "
      + differing.joined(separator: ", ")
      + " (a paid-to-free grant keyed on it would change)"
  }
}
