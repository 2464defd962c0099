import CryptoSupport
import Entitlements
import Foundation

/// Where the team's tokens come from: its own table (`--tokens FILE`), or a UUID version 5 of
/// each account id under a namespace UUID the team chooses (`--derive-tokens NAMESPACE`), so
/// the same account always gets the same token and the app can compute it too.
public enum AccountTokenSource: Sendable, Hashable, CustomStringConvertible {
  /// The team's `account_id,app_account_token` CSV.
  case file(String)
  /// UUID version 5 of each account id in this namespace (lower-cased UUID text).
  case derived(namespace: String)

  /// A derived source, with the namespace checked.
  ///
  /// - Parameter namespace: the namespace UUID.
  /// - Throws: ``AccountTokenFileReader/Failure`` when it is not a UUID.
  public static func deriving(namespace: String) throws -> AccountTokenSource {
    guard NameBasedUUID.bytes(of: namespace) != nil else {
      throw AccountTokenFileReader.Failure(
        description:
          "--derive-tokens takes a namespace UUID (8-4-4-4-12 hexadecimal digits), not "
          + "\"\(namespace)\"; generate one once (uuidgen) and keep it with your app's code")
    }
    return .derived(namespace: namespace.lowercased())
  }

  /// How reports and the journal name the source.
  public var description: String {
    switch self {
    case .file(let path): URL(fileURLWithPath: path).lastPathComponent
    case .derived(let namespace): "UUID v5 of the account id in namespace \(namespace)"
    }
  }

  /// The mapping for these accounts: the file's rows, or each account's derived token.
  ///
  /// - Parameter accounts: every account of the store (a derived mapping needs them to say
  ///   whose a token is).
  /// - Returns: the mapping, and the file's quarantined rows.
  /// - Throws: ``AccountTokenFileReader/Failure``.
  public func load(accounts: [String]) throws -> AccountTokenMappingFile {
    switch self {
    case .file(let path):
      return try AccountTokenFileReader.read(path)
    case .derived(let namespace):
      guard let bytes = NameBasedUUID.bytes(of: namespace) else {
        throw AccountTokenFileReader.Failure(description: "\(namespace) is not a UUID")
      }
      var file = AccountTokenMappingFile(path: description)
      for account in accounts {
        file.mapping.add(
          token: NameBasedUUID.text(of: NameBasedUUID.version5(name: account, namespace: bytes)),
          forAccount: account)
      }
      file.rowsRead = accounts.count
      return file
    }
  }
}
