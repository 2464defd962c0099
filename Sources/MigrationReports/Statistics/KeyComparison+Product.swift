import Entitlements

extension KeyComparison {
  /// The product a key names: the App Store side's, else the legacy or the table side's.
  var productId: String? { new?.productId ?? old?.productId ?? table?.productId }

  /// The subscription group of a group key; `nil` for a product outside groups.
  var subscriptionGroup: String? {
    if case .subscriptionGroup(let identifier) = key { return identifier }
    return nil
  }
}
