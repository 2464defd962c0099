import Chronology
import JSON

/// An external purchase token (`externalPurchaseToken`, in `EXTERNAL_PURCHASE_TOKEN`
/// notifications): it names no environment, so a sandbox token is told by its id's `SANDBOX`
/// prefix.
public struct ExternalPurchaseToken: JSONRepresentable, Hashable {
  /// The token's unique id; sandbox ids begin with `SANDBOX`.
  public var externalPurchaseId: String?

  /// When the token was created.
  public var tokenCreationDate: Timestamp?

  /// The app's Apple id.
  public var appAppleId: Int64?

  /// The app's bundle id.
  public var bundleId: String?

  /// A value with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - externalPurchaseId: The token's unique id; sandbox ids begin with `SANDBOX`.
  ///   - tokenCreationDate: When the token was created.
  ///   - appAppleId: The app's Apple id.
  ///   - bundleId: The app's bundle id.
  public init(
    externalPurchaseId: String? = nil,
    tokenCreationDate: Timestamp? = nil,
    appAppleId: Int64? = nil,
    bundleId: String? = nil
  ) {
    self.externalPurchaseId = externalPurchaseId
    self.tokenCreationDate = tokenCreationDate
    self.appAppleId = appAppleId
    self.bundleId = bundleId
  }

  // MARK: - JSON

  /// Reads the object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The value.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> ExternalPurchaseToken
  {
    var value = ExternalPurchaseToken()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "externalPurchaseId": value.externalPurchaseId = try reader.readOptionalString()
      case "tokenCreationDate": value.tokenCreationDate = try reader.readOptionalTimestamp()
      case "appAppleId": value.appAppleId = try reader.readOptionalInt64()
      case "bundleId": value.bundleId = try reader.readOptionalString()
      default: try reader.skipValue()
      }
    }
    return value
  }

  /// Writes the object with its present members.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("externalPurchaseId", externalPurchaseId)
    writer.member("tokenCreationDate", tokenCreationDate)
    writer.member("appAppleId", appAppleId)
    writer.member("bundleId", bundleId)
    writer.endObject()
  }

  /// The environment the token belongs to, as Apple's verifiers derive it: sandbox when the id
  /// begins with `SANDBOX`, production otherwise.
  public var environment: AppStoreEnvironment {
    externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
  }
}
