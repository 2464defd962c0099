import Chronology
import CryptoSupport
import Foundation
import JSON
import LegacyReceipts

/// Writes the raw receipts the team stored for some accounts: the base64 app receipt the app
/// sent, holding every purchase of the receipt at its capture instant, signed as PKCS#7 by the
/// simulator's chain — half of them in DER, half in BER with indefinite lengths, as Xcode
/// writes them.
struct RawReceiptWriter {
  let world: World
  let chain: CertificateAuthorityChain

  /// The NDJSON record of a raw-receipt snapshot.
  func record(for snapshot: LegacySnapshot, accountId: String) throws -> String {
    let customer = world.customers[snapshot.customer]
    let writer = LegacyResponseWriter(world: world)
    let purchases = writer.visibleTransactions(of: snapshot).map {
      transaction in
      var cancelled: Timestamp?
      if let upgraded = transaction.upgradedAt, upgraded <= snapshot.capturedAt {
        cancelled = upgraded
      } else if let revocation = transaction.revocation(at: snapshot.capturedAt),
        revocation.kind != .refundProrated
      {
        cancelled = revocation.date
      }
      return InAppRecord(
        quantity: transaction.quantity, productId: transaction.productId,
        transactionId: transaction.transactionId,
        originalTransactionId: transaction.originalTransactionId,
        purchaseDate: transaction.purchaseDate,
        originalPurchaseDate: transaction.originalPurchaseDate,
        expiresDate: transaction.kind == .autoRenewable ? transaction.expiresDate : nil,
        cancellationDate: cancelled,
        webOrderLineItemId: transaction.webOrderLineItemId,
        isInIntroOfferPeriod: transaction.kind == .autoRenewable
          ? (transaction.offer?.type == 1) : nil)
    }
    let receipt = RawAppReceipt(
      receiptType: customer.environment == .production ? "Production" : "ProductionSandbox",
      bundleId: world.bundleId,
      applicationVersion: "512", originalApplicationVersion: World.originalApplicationVersion,
      creationDate: snapshot.capturedAt,
      inAppPurchases: purchases)
    let encoding: PKCS7SignedData.Encoding =
      world.number(of: customer) % 2 == 0 ? .der : .indefiniteLengthBER
    let base64 = try AppReceiptBuilder.base64Receipt(
      for: receipt, signer: chain.leaf, intermediates: [chain.intermediate.certificate],
      encoding: encoding)
    var json = JSONWriter()
    json.beginObject()
    json.field("account_id", accountId)
    json.field("captured_at", snapshot.capturedAt.iso8601)
    json.field("environment", customer.environment.rawValue)
    if snapshot.storesAppTransactionId {
      json.field("app_transaction_id", customer.appTransactionId)
    }
    json.field("receipt_data", base64)
    json.endObject()
    return json.string
  }
}
