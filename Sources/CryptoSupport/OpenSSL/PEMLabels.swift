/// The labels of the PEM blocks in a text (`CERTIFICATE`, `PRIVATE KEY`, ...), in order.
///
/// OpenSSL's PEM readers skip blocks they were not asked for and then only say "no start line".
/// Knowing what *is* there lets an error say "this file holds a certificate, not a private key".
enum PEMLabels {
  /// Every `-----BEGIN <label>-----` label in `bytes`, in order of appearance.
  static func find(in bytes: [UInt8]) -> [String] {
    let marker = Array("-----BEGIN ".utf8)
    let dash = UInt8(ascii: "-")
    var labels: [String] = []
    var index = 0
    while index + marker.count <= bytes.count {
      guard bytes[index..<index + marker.count].elementsEqual(marker) else {
        index += 1
        continue
      }
      let start = index + marker.count
      var end = start
      while end < bytes.count, bytes[end] != dash, bytes[end] != UInt8(ascii: "\n") {
        end += 1
      }
      labels.append(String(decoding: bytes[start..<end], as: UTF8.self))
      index = end
    }
    return labels
  }

  /// A reader's name for what a PEM label holds ("a certificate", "an RSA private key").
  static func describe(_ label: String) -> String {
    switch label {
    case "CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE": "a certificate"
    case "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST": "a certificate signing request"
    case "PUBLIC KEY": "a public key"
    case "PRIVATE KEY": "a PKCS#8 private key"
    case "ENCRYPTED PRIVATE KEY": "a passphrase-encrypted PKCS#8 private key"
    case "EC PRIVATE KEY": "a SEC1 elliptic-curve private key"
    case "RSA PRIVATE KEY": "an RSA private key"
    case "RSA PUBLIC KEY": "an RSA public key"
    case "DSA PRIVATE KEY": "a DSA private key"
    case "EC PARAMETERS": "elliptic-curve parameters"
    case "PKCS7": "a PKCS#7 structure"
    case "X509 CRL": "a certificate revocation list"
    default: "a PEM block labelled \"\(label)\""
    }
  }

  /// Whether the text carries a legacy PEM encryption header (`Proc-Type: 4,ENCRYPTED`).
  static func hasEncryptionHeader(in bytes: UnsafeRawBufferPointer) -> Bool {
    let header = Array("Proc-Type: 4,ENCRYPTED".utf8)
    guard bytes.count >= header.count else { return false }
    for start in 0...(bytes.count - header.count)
    where bytes[start..<start + header.count].elementsEqual(header) {
      return true
    }
    return false
  }
}
