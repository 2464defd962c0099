// The second half of the `jws` target: signed values whose numbers the fuzzer chooses.
//
// A JWS the fuzzer writes by itself never carries a valid signature, so the code after the
// signature check (decoding every member, the inspector's output) only ever sees what the seeds
// carried. An input that starts with 0xFF is therefore read as numbers instead: every numeric
// member of a transaction, renewal information, app transaction and notification (dates,
// prices, quantities, percentages, ids, statuses) takes the next one, the payload is signed
// with a chain made for the run, and each is verified and shown as `decode` shows it. Dates
// inside the chain's validity reach the decoding; dates outside it reach the chain check at the
// edges of 64 bits — where `signedDate` near `Int64.min` once trapped.

import Chronology
import CryptoSupport

@testable import AppStoreServerAPI

/// The chain signed values of this mode are signed with, made once per run, valid from
/// 2020-09-13 to 2033-05-18.
let numbersChain: CertificateAuthorityChain = {
  do {
    return try CertificateAuthorityChain.generate(
      .appStoreLike(notBefore: 1_600_000_000_000, notAfter: 2_000_000_000_000))
  } catch {
    fatalError("the harness cannot make its chain: \(error)")
  }
}()

let numbersSigner = JWSSigner(chain: numbersChain)

let numbersVerifier = try! SignedDataVerifier(
  trustedRoots: [numbersChain.root.certificate], bundleId: "com.example", appAppleId: 1234,
  environment: .sandbox, now: { now }, notice: { _ in })

/// The numbers an input spells, one after another, endlessly: a byte below 12 stands for one of
/// the values at the edges of 64 bits (so the fuzzer reaches them at once), any other byte
/// starts eight bytes of a little-endian `Int64`.
struct Numbers {
  static let edges: [Int64] = [
    .min, .min + 1, .min + 999, .min + 1000, .max, .max - 999, 0, -1, -999, 1_700_000_000_000,
    -62_135_596_800_001, 253_402_300_800_000,
  ]

  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  mutating func next() -> Int64 {
    guard !bytes.isEmpty else { return 0 }
    let selector = take()
    if Int(selector) < Self.edges.count { return Self.edges[Int(selector)] }
    var value: UInt64 = 0
    for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(take()) << UInt64(shift) }
    return Int64(bitPattern: value)
  }

  private mutating func take() -> UInt8 {
    defer { index = (index + 1) % bytes.count }
    return bytes[index]
  }
}

/// Signs, verifies and shows values made of the numbers in `bytes`.
func fuzzSignedNumbers(_ bytes: UnsafeBufferPointer<UInt8>) {
  var numbers = Numbers(bytes: bytes)
  func n() -> Int64 { numbers.next() }
  let transaction = sign(
    #"{"transactionId":"\#(n())","originalTransactionId":"\#(n())","webOrderLineItemId":"\#(n())","#
      + #""bundleId":"com.example","productId":"p","type":"Auto-Renewable Subscription","#
      + #""environment":"Sandbox","inAppOwnershipType":"PURCHASED","currency":"USD","#
      + #""signedDate":\#(n()),"purchaseDate":\#(n()),"originalPurchaseDate":\#(n()),"#
      + #""expiresDate":\#(n()),"revocationDate":\#(n()),"quantity":\#(n()),"price":\#(n()),"#
      + #""revocationReason":\#(n()),"revocationPercentage":\#(n()),"offerType":\#(n()),"#
      + #""offerDiscountType":"PAY_AS_YOU_GO","offerPeriod":"P1M","storefrontId":"\#(n())"}"#)
  let renewal = sign(
    #"{"originalTransactionId":"\#(n())","productId":"p","autoRenewProductId":"p","#
      + #""environment":"Sandbox","currency":"USD","signedDate":\#(n()),"#
      + #""autoRenewStatus":\#(n()),"expirationIntent":\#(n()),"isInBillingRetryPeriod":true,"#
      + #""gracePeriodExpiresDate":\#(n()),"priceIncreaseStatus":\#(n()),"offerType":\#(n()),"#
      + #""renewalDate":\#(n()),"renewalPrice":\#(n()),"recentSubscriptionStartDate":\#(n())}"#)
  let appTransaction = sign(
    #"{"receiptType":"Sandbox","bundleId":"com.example","appAppleId":\#(n()),"#
      + #""versionExternalIdentifier":\#(n()),"receiptCreationDate":\#(n()),"#
      + #""originalPurchaseDate":\#(n()),"preorderDate":\#(n()),"signedDate":\#(n()),"#
      + #""applicationVersion":"1","originalApplicationVersion":"1"}"#)
  let notification = sign(
    #"{"notificationType":"DID_RENEW","notificationUUID":"u","version":"2.0","#
      + #""signedDate":\#(n()),"data":{"bundleId":"com.example","appAppleId":\#(n()),"#
      + #""environment":"Sandbox","status":\#(n()),"signedTransactionInfo":"\#(transaction)","#
      + #""signedRenewalInfo":"\#(renewal)"}}"#)

  do {
    let verified = try numbersVerifier.verifyTransaction(transaction)
    invariant(verified.jws == transaction, "a verified transaction is not the JWS verified")
  } catch {
    expectDescribed(error)
  }
  do { _ = try numbersVerifier.verifyRenewalInfo(renewal) } catch { expectDescribed(error) }
  do { _ = try numbersVerifier.verifyAppTransaction(appTransaction) } catch {
    expectDescribed(error)
  }
  do { _ = try numbersVerifier.verifyNotification(notification) } catch { expectDescribed(error) }
  for jws in [transaction, renewal, appTransaction, notification] {
    for json in [false, true] {
      let report = SignedValueInspector.inspect(
        jws, trustedRoots: [numbersChain.root.certificate], bundleId: nil, environment: nil,
        appAppleId: nil, now: now, json: json)
      invariant(!report.text.isEmpty, "the inspector wrote nothing")
    }
  }
}

/// The compact JWS of `payload`, signed with the run's chain.
func sign(_ payload: String) -> String {
  do {
    return try numbersSigner.sign(payload: Array(payload.utf8))
  } catch {
    fatalError("the harness cannot sign: \(error)")
  }
}
