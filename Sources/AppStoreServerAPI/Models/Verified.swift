/// A payload whose JWS passed every verification step, kept beside the exact JWS it came from
/// (the store keeps the raw JWS as the App Store's evidence).
///
/// Only ``SignedDataVerifier`` makes these; code in this package (the simulator, tests) may use the
/// package-level initializer for values it signed itself.
public struct Verified<Payload: Sendable>: Sendable {
  /// The decoded payload.
  public let payload: Payload

  /// The compact JWS exactly as received.
  public let jws: String

  /// Pairs a payload with its JWS without verifying anything.
  package init(payload: Payload, jws: String) {
    self.payload = payload
    self.jws = jws
  }
}

extension Verified: Equatable where Payload: Equatable {}

extension Verified: Hashable where Payload: Hashable {}
