import Chronology

/// What an app receipt (the base64 PKCS#7 `receipt-data` an app sends) holds: the app it belongs
/// to, when it was made, and every in-app purchase in it.
///
/// Reading one does not prove it genuine: ``RawReceiptSignature`` says whether it was checked.
/// Its ids are still good for calling the App Store Server API, whose signed answers are the
/// truth.
public struct RawAppReceipt: Hashable, Sendable {
  /// 0: the receipt type, such as `Production`, `ProductionSandbox` or `Xcode`.
  public var receiptType: String?
  /// 2: the app's bundle identifier.
  public var bundleId: String?
  /// 3: the app version the receipt was made for.
  public var applicationVersion: String?
  /// 19: the app version originally purchased.
  public var originalApplicationVersion: String?
  /// 12: when the receipt was created.
  public var creationDate: Timestamp?
  /// 21: when a volume-purchase receipt expires.
  public var expirationDate: Timestamp?
  /// 17: every in-app purchase, in receipt order.
  public var inAppPurchases: [InAppRecord]

  /// Creates a receipt; every field defaults to absent.
  ///
  /// - Parameters:
  ///   - receiptType: 0, the receipt type.
  ///   - bundleId: 2, the bundle identifier.
  ///   - applicationVersion: 3, the app version.
  ///   - originalApplicationVersion: 19, the app version originally purchased.
  ///   - creationDate: 12, when the receipt was created.
  ///   - expirationDate: 21, when a volume-purchase receipt expires.
  ///   - inAppPurchases: 17, the in-app purchases in order.
  public init(
    receiptType: String? = nil, bundleId: String? = nil, applicationVersion: String? = nil,
    originalApplicationVersion: String? = nil, creationDate: Timestamp? = nil,
    expirationDate: Timestamp? = nil, inAppPurchases: [InAppRecord] = []
  ) {
    self.receiptType = receiptType
    self.bundleId = bundleId
    self.applicationVersion = applicationVersion
    self.originalApplicationVersion = originalApplicationVersion
    self.creationDate = creationDate
    self.expirationDate = expirationDate
    self.inAppPurchases = inAppPurchases
  }

  /// The distinct original transaction ids of the in-app purchases, in receipt order: the seeds
  /// for the App Store Server API.
  public var originalTransactionIds: [String] {
    distinct(inAppPurchases.lazy.compactMap(\.originalTransactionId))
  }

  /// The distinct transaction ids of the in-app purchases, in receipt order.
  public var transactionIds: [String] {
    distinct(inAppPurchases.lazy.compactMap(\.transactionId))
  }

  private func distinct(_ ids: some Sequence<String>) -> [String] {
    // Sized up front: growing a set rehashes every id it holds.
    var seen = Set<String>(minimumCapacity: inAppPurchases.count)
    var result: [String] = []
    for id in ids where seen.insert(id).inserted { result.append(id) }
    return result
  }
}
