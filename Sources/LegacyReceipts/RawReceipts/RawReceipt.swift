import Chronology

/// A raw receipt as read: its contents and the verdict on its signature.
public struct RawReceipt: Hashable, Sendable {
  /// What the receipt holds.
  public var content: Content
  /// Whether the signature was checked, and the verdict.
  public var signature: RawReceiptSignature

  /// Creates a read receipt.
  ///
  /// - Parameters:
  ///   - content: What the receipt holds.
  ///   - signature: The verdict on its signature.
  public init(content: Content, signature: RawReceiptSignature) {
    self.content = content
    self.signature = signature
  }

  /// The receipt's format.
  public var format: RawReceiptFormat {
    switch content {
    case .appReceipt: .appReceipt
    case .transactionReceipt: .transactionReceipt
    }
  }

  /// What the migration takes from the receipt.
  public var seeds: RawReceiptSeeds {
    switch content {
    case .appReceipt(let receipt):
      RawReceiptSeeds(
        format: .appReceipt, originalTransactionIds: receipt.originalTransactionIds,
        transactionIds: receipt.transactionIds, bundleId: receipt.bundleId,
        creationDate: receipt.creationDate,
        environment: receipt.receiptType.map(Self.environment(ofReceiptType:)),
        signature: signature)
    case .transactionReceipt(let receipt):
      RawReceiptSeeds(
        // Apple's own receipt utility reads only `transaction-id` from such a receipt; when the
        // original id is missing, that id stands in: the App Store Server API takes any
        // transaction id of a customer.
        format: .transactionReceipt,
        originalTransactionIds: [receipt.originalTransactionId ?? receipt.transactionId],
        transactionIds: [receipt.transactionId], bundleId: receipt.bundleId, creationDate: nil,
        environment: receipt.environment.map(ReceiptEnvironment.init), signature: signature)
    }
  }

  /// The environment an app receipt's type names: `Production` and `ProductionVPP` are
  /// production, `ProductionSandbox` and `ProductionVPPSandbox` sandbox; other types (`Xcode`)
  /// are kept as written, since no Server API environment knows them.
  static func environment(ofReceiptType type: String) -> ReceiptEnvironment {
    switch type {
    case "Production", "ProductionVPP": .production
    case "ProductionSandbox", "ProductionVPPSandbox": .sandbox
    default: .other(type)
    }
  }
}
