import CryptoSupport

/// Replaces account ids and App Store customer keys with stable pseudonyms, so that a report
/// can leave the team without naming anyone.
///
/// A pseudonym is a keyed SHA-256 of the value: the same value maps to the same pseudonym in
/// every report made with the same salt (reruns and later runs line up), and without the salt
/// nobody can test a guessed id against a pseudonym — which matters because account ids are
/// often small, sequential numbers. The hash input is the salt's length, the salt, a label
/// that keeps accounts and customers in separate spaces, and the value; the salt's length
/// comes first so that no two (salt, value) pairs share an input. This is a pseudonym, not a
/// message authentication code, so SHA-256's length extension property gives nothing away.
public struct Pseudonymizer: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
  /// The shortest salt accepted: 16 bytes (128 bits), beyond any search of guessed salts.
  public static let minimumSaltByteCount = 16

  /// Hexadecimal digits of the digest kept: 64 bits, so collisions stay unlikely (about one in
  /// 3,700 for ten million accounts) while pseudonyms remain short enough to read aloud.
  private static let digestHexDigits = 16

  private let salt: [UInt8]

  /// Creates a pseudonymizer.
  ///
  /// - Parameter salt: the secret salt, at least ``minimumSaltByteCount`` bytes; keep it (the
  ///   pipeline stores one in the database) so that reruns give the same pseudonyms.
  /// - Throws: ``ReportError`` (`saltTooShort`) when the salt is shorter than 16 bytes.
  public init(salt: [UInt8]) throws(ReportError) {
    guard salt.count >= Self.minimumSaltByteCount else {
      throw ReportError(
        .saltTooShort,
        "the pseudonymisation salt has \(salt.count) bytes, fewer than the "
          + "\(Self.minimumSaltByteCount) that keep pseudonyms from being reversed; "
          + "use 16 or more random bytes")
    }
    self.salt = salt
  }

  /// The pseudonym of a team account id: `acct_` and 16 hexadecimal digits.
  ///
  /// - Parameter accountId: the account id.
  /// - Returns: the pseudonym.
  public func pseudonym(forAccount accountId: String) -> String {
    "acct_" + digest(label: "account", accountId)
  }

  /// The pseudonym of an App Store customer key (an `appTransactionId`): `cust_` and 16
  /// hexadecimal digits.
  ///
  /// - Parameter customerKey: the customer key.
  /// - Returns: the pseudonym.
  public func pseudonym(forCustomer customerKey: String) -> String {
    "cust_" + digest(label: "customer", customerKey)
  }

  /// Never shows the salt, so that logging options cannot leak it.
  public var description: String { "Pseudonymizer(salt: redacted)" }

  /// Shows no children, so that `dump` cannot leak the salt either.
  public var customMirror: Mirror { Mirror(self, children: [:]) }

  private func digest(label: String, _ value: String) -> String {
    var input: [UInt8] = []
    input.reserveCapacity(8 + salt.count + label.utf8.count + 1 + value.utf8.count)
    withUnsafeBytes(of: UInt64(salt.count).bigEndian) { input.append(contentsOf: $0) }
    input.append(contentsOf: salt)
    input.append(contentsOf: label.utf8)
    input.append(0)
    input.append(contentsOf: value.utf8)
    return String(SHA256.hexDigest(input).prefix(Self.digestHexDigits))
  }
}
