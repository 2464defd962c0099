import Foundation

/// Writing PEM text (RFC 7468): a label, base64 body in 64-character lines, and an end line.
enum PEMText {
  /// `der` wrapped as PEM with the given label ("CERTIFICATE", "PUBLIC KEY").
  static func encode(_ der: [UInt8], label: String) -> String {
    let body = Data(der).base64EncodedString(options: [
      .lineLength64Characters, .endLineWithLineFeed,
    ])
    return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
  }
}
