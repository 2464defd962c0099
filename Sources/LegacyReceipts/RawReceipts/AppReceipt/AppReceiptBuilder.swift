import ASN1
import Chronology
import CryptoSupport
import Foundation

/// Builds app receipts shaped like Apple's: the ASN.1 payload of a ``RawAppReceipt``, signed as
/// PKCS#7 `signedData` and base64-encoded — for tests and for the simulator's legacy data.
///
/// The payload writes attributes in Apple's layout (type, version 1, value in an OCTET STRING),
/// the receipt's fields first and then one type 17 attribute per in-app purchase, absent fields
/// omitted and dates in RFC 3339 to the second, as Apple writes them. ``AppReceiptReader`` reads
/// back exactly the receipt that was built, apart from the milliseconds of its dates.
public enum AppReceiptBuilder {
  /// The receipt payload: a SET of attributes.
  ///
  /// - Parameters:
  ///   - receipt: What the receipt holds.
  ///   - lengthForm: Definite lengths (DER's), or indefinite lengths for every SET and
  ///     SEQUENCE, as BER allows.
  /// - Returns: The encoded payload.
  /// - Throws: ``RawReceiptError/invalidNumber(_:text:)`` if a web order line item id is not a
  ///   decimal 64-bit integer, which the receipt's INTEGER field needs.
  public static func payload(
    for receipt: RawAppReceipt, lengthForm: ASN1Writer.LengthForm = .definite
  ) throws(RawReceiptError) -> [UInt8] {
    var writer = ASN1Writer(lengthForm: lengthForm)
    try writer.writeConstructed(.set) { attributes throws(RawReceiptError) in
      attributes.writeText(receipt.receiptType, as: .receiptType)
      attributes.writeText(receipt.bundleId, as: .bundleId)
      attributes.writeText(receipt.applicationVersion, as: .applicationVersion)
      attributes.writeDate(receipt.creationDate, as: .creationDate)
      attributes.writeText(receipt.originalApplicationVersion, as: .originalApplicationVersion)
      attributes.writeDate(receipt.expirationDate, as: .expirationDate)
      for (offset, record) in receipt.inAppPurchases.enumerated() {
        try attributes.writeInAppPurchase(record, index: offset + 1)
      }
    }
    return writer.bytes
  }

  /// Signs a payload as a PKCS#7 `signedData` app receipt.
  ///
  /// - Parameters:
  ///   - payload: The receipt payload, from ``payload(for:lengthForm:)``.
  ///   - signer: The signing certificate and key (the leaf of a test or simulator chain).
  ///   - intermediates: Certificates to embed so verifiers can build the path.
  ///   - encoding: DER, or BER with indefinite lengths as Xcode's receipts use.
  /// - Returns: The envelope's bytes.
  /// - Throws: ``CryptoError`` if OpenSSL cannot sign.
  public static func sign(
    payload: [UInt8], signer: CertifiedKey, intermediates: [X509Certificate] = [],
    encoding: PKCS7SignedData.Encoding = .der
  ) throws(CryptoError) -> [UInt8] {
    try PKCS7SignedData.sign(
      content: payload, signer: signer, additionalCertificates: intermediates, encoding: encoding)
  }

  /// A signed, base64-encoded app receipt, as an app would send it.
  ///
  /// The payload always has definite lengths, as Apple's and Xcode's do; `.indefiniteLengthBER`
  /// makes the envelope around it BER with indefinite lengths and segmented content, the shape
  /// of Xcode's receipts. For a payload with indefinite lengths, call
  /// ``payload(for:lengthForm:)`` and ``sign(payload:signer:intermediates:encoding:)``.
  ///
  /// - Parameters:
  ///   - receipt: What the receipt holds.
  ///   - signer: The signing certificate and key.
  ///   - intermediates: Certificates to embed so verifiers can build the path.
  ///   - encoding: The envelope's encoding.
  /// - Returns: The base64 text.
  /// - Throws: ``RawReceiptError`` for a field the payload cannot encode, ``CryptoError`` if
  ///   signing fails.
  public static func base64Receipt(
    for receipt: RawAppReceipt, signer: CertifiedKey, intermediates: [X509Certificate] = [],
    encoding: PKCS7SignedData.Encoding = .der
  ) throws -> String {
    let payload = try payload(for: receipt)
    let envelope = try sign(
      payload: payload, signer: signer, intermediates: intermediates, encoding: encoding)
    return Data(envelope).base64EncodedString()
  }

  /// A date as Apple writes it in receipts: RFC 3339 in UTC, whole seconds.
  static func rfc3339(_ date: Timestamp) -> String {
    var civil = CivilTime(date)
    civil.millisecond = 0
    return civil.iso8601
  }
}

// MARK: - Attributes

extension ASN1Writer {
  /// Writes one `ReceiptAttribute`: type, version 1, and the value's encoding in an OCTET
  /// STRING.
  fileprivate mutating func writeAttribute(
    _ field: AppReceiptField, _ value: (inout ASN1Writer) -> Void
  ) {
    let form = lengthForm
    writeConstructed(.sequence) { attribute in
      attribute.writeInteger(field.rawValue)
      attribute.writeInteger(1)
      var encoded = ASN1Writer(lengthForm: form)
      value(&encoded)
      attribute.writeOctetString(encoded.bytes)
    }
  }

  fileprivate mutating func writeText(_ text: String?, as field: AppReceiptField) {
    guard let text else { return }
    writeAttribute(field) { $0.writeUTF8String(text) }
  }

  fileprivate mutating func writeDate(_ date: Timestamp?, as field: AppReceiptField) {
    guard let date else { return }
    writeAttribute(field) { $0.writeIA5String(AppReceiptBuilder.rfc3339(date)) }
  }

  fileprivate mutating func writeInteger(_ value: Int64?, as field: AppReceiptField) {
    guard let value else { return }
    writeAttribute(field) { $0.writeInteger(value) }
  }

  fileprivate mutating func writeInAppPurchase(_ record: InAppRecord, index: Int)
    throws(RawReceiptError)
  {
    var webOrderLineItemId: Int64?
    if let text = record.webOrderLineItemId {
      guard let value = Int64(text) else {
        throw .invalidNumber(.inAppPurchase(index: index, .webOrderLineItemId), text: text)
      }
      webOrderLineItemId = value
    }
    let form = lengthForm
    writeAttribute(.inAppPurchase) { value in
      var fields = ASN1Writer(lengthForm: form)
      fields.writeConstructed(.set) { set in
        set.writeInteger(record.quantity, as: .quantity)
        set.writeText(record.productId, as: .productId)
        set.writeText(record.transactionId, as: .transactionId)
        set.writeDate(record.purchaseDate, as: .purchaseDate)
        set.writeText(record.originalTransactionId, as: .originalTransactionId)
        set.writeDate(record.originalPurchaseDate, as: .originalPurchaseDate)
        set.writeDate(record.expiresDate, as: .expiresDate)
        set.writeInteger(webOrderLineItemId, as: .webOrderLineItemId)
        set.writeDate(record.cancellationDate, as: .cancellationDate)
        set.writeInteger(record.isInIntroOfferPeriod.map { $0 ? 1 : 0 }, as: .isInIntroOfferPeriod)
      }
      value.writeEncoded(fields.bytes)
    }
  }
}
