import Chronology

/// The decoded payload of App Store signed data (a JWS): what ``SignedDataVerifier`` checks and
/// the App Store simulator signs.
public protocol SignedPayload: JSONRepresentable {
  /// When the App Store signed the payload.
  var signedDate: Timestamp? { get }

  /// The instant the payload's certificate chain is validated at: `signedDate` where the payload
  /// has one (the default), else another date the payload carries, else `nil` (then the
  /// verifier's current time is used), as Apple's own verifiers do.
  var validationDate: Timestamp? { get }
}

extension SignedPayload {
  /// `signedDate`, the validation instant of every payload kind but app transactions.
  public var validationDate: Timestamp? { signedDate }
}
