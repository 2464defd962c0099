import AppStoreServerAPI
import CryptoSupport
import JSON

/// The `extreme-signed-date` fault: the first signed value of an answer, signed again with the
/// simulator's own key after its `signedDate` was set to the earliest instant a 64-bit JSON
/// integer holds.
///
/// The value is signed correctly, so a client can only refuse it for what it says, never for
/// how it was signed: what the fault tests is the client's arithmetic on a date it did not
/// choose (a certificate chain checked at that instant, a time difference, a calendar date).
enum ExtremeSignedDate {
  /// The `signedDate` the fault writes: `Int64.min` milliseconds, about 292 million years
  /// before 1970.
  static let milliseconds = Int64.min

  /// Signs the first compact JWS of `body` again with `signedDate` at ``milliseconds``.
  ///
  /// - Parameters:
  ///   - body: a JSON answer body.
  ///   - signer: the simulator's signer.
  /// - Returns: whether a JWS was found and replaced.
  static func resign(firstSignedValueIn body: inout [UInt8], with signer: JWSSigner) -> Bool {
    guard let range = SimulatorResponder.firstCompactJWS(in: body) else { return false }
    let parts = body[range].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3,
      let payloadBytes = try? Base64URL.decode(utf8: parts[1]),
      let payload = try? JSONValue(parsing: payloadBytes),
      case .object(var members) = payload
    else {
      // Not a value this simulator signed; leave the body alone.
      return false
    }
    let extreme = JSONValue.number(String(milliseconds))
    if let index = members.firstIndex(where: { $0.key == "signedDate" }) {
      members[index].value = extreme
    } else {
      members.append(JSONValue.Member("signedDate", extreme))
    }
    let edited = JSONValue.object(members).serialized(style: .compact)
    guard let jws = try? signer.sign(payload: Array(edited.utf8)) else { return false }
    body.replaceSubrange(range, with: Array(jws.utf8))
    return true
  }
}
