import ASN1
import Chronology
import CryptoSupport
import Foundation
import LegacyReceipts

/// Receipts built for the raw-receipt tests: a signing chain, sample purchases, and envelopes
/// assembled by hand where a test needs one that OpenSSL would never sign.
enum ReceiptFixtures {
  /// 2020-01-01T00:00:00Z to 2030-01-01T00:00:00Z, the validity of the test chain.
  static let chainStart = Timestamp(millisecondsSince1970: 1_577_836_800_000)
  static let chainEnd = Timestamp(millisecondsSince1970: 1_893_456_000_000)
  /// 2024-06-01T08:30:00Z, when the sample receipts were made.
  static let created = Timestamp(millisecondsSince1970: 1_717_230_600_000)

  /// One chain for the whole run: generating keys is the slow part of these tests.
  static let chain: CertificateAuthorityChain = try! CertificateAuthorityChain.generate(
    .appStoreLike(
      notBefore: chainStart.millisecondsSince1970, notAfter: chainEnd.millisecondsSince1970))

  /// A verifier trusting ``chain``'s root.
  static let verifier = try! CertificateChainVerifier(trustedRoots: [chain.root.certificate])

  /// `count` in-app purchases: monthly renewals of two subscriptions, interleaved, so original
  /// ids repeat and the distinct ones keep their first-seen order.
  static func purchases(_ count: Int) -> [InAppRecord] {
    (0..<count).map { index in
      let subscription = index % 2
      let period = Int64(index / 2)
      let start = created.adding(milliseconds: -Timestamp.millisecondsPerDay * 30 * (period + 1))
      return InAppRecord(
        quantity: 1, productId: subscription == 0 ? "com.example.monthly" : "com.example.pro",
        transactionId: String(1_000_000_800_000_000 + Int64(index)),
        originalTransactionId: String(1_000_000_700_000_000 + Int64(subscription)),
        purchaseDate: start, originalPurchaseDate: start,
        expiresDate: start.adding(milliseconds: Timestamp.millisecondsPerDay * 30),
        cancellationDate: index == 3 ? start.adding(milliseconds: 3_600_000) : nil,
        webOrderLineItemId: String(1_000_000_050_000_000 + Int64(index)),
        isInIntroOfferPeriod: index < 2)
    }
  }

  /// A receipt with `count` purchases.
  static func receipt(purchases count: Int) -> RawAppReceipt {
    RawAppReceipt(
      receiptType: "ProductionSandbox", bundleId: "com.example.app", applicationVersion: "42",
      originalApplicationVersion: "1.0", creationDate: created, inAppPurchases: purchases(count))
  }

  /// A signed receipt's bytes.
  static func signed(_ receipt: RawAppReceipt, _ encoding: PKCS7SignedData.Encoding) throws
    -> [UInt8]
  {
    let payload = try AppReceiptBuilder.payload(
      for: receipt, lengthForm: encoding == .der ? .definite : .indefinite)
    return try AppReceiptBuilder.sign(
      payload: payload, signer: chain.leaf, intermediates: [chain.intermediate.certificate],
      encoding: encoding)
  }

  /// Base64 of bytes.
  static func base64(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
  }

  // MARK: - Hand-made structures

  static let signedDataType = ASN1ObjectIdentifier("1.2.840.113549.1.7.2")!
  static let dataType = ASN1ObjectIdentifier("1.2.840.113549.1.7.1")!

  /// An unsigned PKCS#7 envelope around `payload`, shaped like a receipt's: for structures
  /// OpenSSL would refuse to sign. `payload: nil` leaves the content out (detached).
  static func envelope(
    payload: [UInt8]?, contentType: ASN1ObjectIdentifier = signedDataType,
    encapsulatedType: ASN1ObjectIdentifier = dataType,
    lengthForm: ASN1Writer.LengthForm = .definite, segmentLength: Int? = nil
  ) -> [UInt8] {
    var writer = ASN1Writer(lengthForm: lengthForm)
    writer.writeConstructed(.sequence) { contentInfo in
      contentInfo.writeObjectIdentifier(contentType)
      contentInfo.writeConstructed(.contextSpecific(0)) { explicit in
        explicit.writeConstructed(.sequence) { signedData in
          signedData.writeInteger(1)
          signedData.writeConstructed(.set) { _ in }
          signedData.writeConstructed(.sequence) { encapsulated in
            encapsulated.writeObjectIdentifier(encapsulatedType)
            if let payload {
              encapsulated.writeConstructed(.contextSpecific(0)) { content in
                if let segmentLength {
                  content.writeSegmentedOctetString(payload, segmentLength: segmentLength)
                } else {
                  content.writeOctetString(payload)
                }
              }
            }
          }
          signedData.writeConstructed(.set) { _ in }
        }
      }
    }
    return writer.bytes
  }

  /// One receipt attribute: type, version 1, and `value`'s encoding in an OCTET STRING.
  static func attribute(_ type: Int64, _ value: (inout ASN1Writer) -> Void) -> [UInt8] {
    var encoded = ASN1Writer()
    value(&encoded)
    var writer = ASN1Writer()
    writer.writeConstructed(.sequence) { attribute in
      attribute.writeInteger(type)
      attribute.writeInteger(1)
      attribute.writeOctetString(encoded.bytes)
    }
    return writer.bytes
  }

  /// A SET of encoded attributes.
  static func set(_ attributes: [[UInt8]]) -> [UInt8] {
    var writer = ASN1Writer()
    writer.writeConstructed(.set) { set in
      for attribute in attributes { set.writeEncoded(attribute) }
    }
    return writer.bytes
  }

  /// A payload holding one in-app purchase made of `attributes`.
  static func payload(inAppAttributes attributes: [[UInt8]]) -> [UInt8] {
    set([attribute(17) { $0.writeEncoded(set(attributes)) }])
  }

  /// A deterministic random number generator (SplitMix64), so mutation tests repeat exactly.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      return mixed ^ (mixed >> 31)
    }
  }
}
