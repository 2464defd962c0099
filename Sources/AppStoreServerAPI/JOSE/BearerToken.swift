import Chronology

/// A signed request token (a JWT) and when it expires.
///
/// The token authenticates as the App Store Connect key's owner until it expires, so it is
/// secret: `description`, `debugDescription` and `dump` never show it.
public struct BearerToken: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The compact JWT; send it only in an `Authorization` header.
  public let value: String

  /// When the token was issued (`iat`, whole seconds).
  public let issuedAt: Timestamp

  /// When the token expires (`exp`, whole seconds).
  public let expiresAt: Timestamp

  /// A token from its parts.
  ///
  /// - Parameters:
  ///   - value: The compact JWT.
  ///   - issuedAt: Its `iat`.
  ///   - expiresAt: Its `exp`.
  public init(value: String, issuedAt: Timestamp, expiresAt: Timestamp) {
    self.value = value
    self.issuedAt = issuedAt
    self.expiresAt = expiresAt
  }

  /// The value of an `Authorization` header carrying the token.
  public var authorizationHeaderValue: String { "Bearer " + value }

  /// `BearerToken(<redacted>, expires …)`.
  public var description: String { "BearerToken(<redacted>, expires \(expiresAt))" }

  /// Same as ``description``.
  public var debugDescription: String { description }

  /// A mirror without the token.
  public var customMirror: Mirror {
    Mirror(self, children: ["expiresAt": expiresAt], displayStyle: .struct)
  }
}
