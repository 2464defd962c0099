import Chronology

/// The decoded payload of App Store signed data (a JWS): what ``SignedDataVerifier`` checks and
/// the App Store simulator signs.
public protocol SignedPayload: JSONRepresentable {
  /// When the App Store signed the payload: the instant its certificate chain is validated at.
  var signedDate: Timestamp? { get }
}
