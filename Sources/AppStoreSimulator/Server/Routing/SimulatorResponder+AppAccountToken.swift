import AppStoreServerAPI
import HTTPServer
import JSON

extension SimulatorResponder {
  /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` with
  /// `{"appAccountToken": UUID}`: sets the token on the purchase's latest transaction (and any
  /// later renewal), as Apple does; earlier renewals keep theirs. The changed transaction moves
  /// to a later last-modified position and is re-signed with a later `signedDate`.
  ///
  /// The errors Apple documents for this endpoint: 4000006 malformed id, 4000183 not a UUID
  /// (4000000 when the body is not JSON), 4040005 no such original transaction here (where
  /// the reading endpoints answer 4040010), 4000048 an app transaction id, 4000187 not an
  /// original transaction id, 4000185 family-shared; and 4000227 for an `ASSIGNED` purchase
  /// unless ``UnconfirmedBehaviour/assignedPurchaseToken`` says otherwise.
  func setAppAccountToken(
    _ id: String, _ request: ServerRequest, in environment: SimulatedEnvironment
  ) -> Answer {
    let snapshot: CustomerSnapshot
    let token: String
    switch resolve(id, in: environment, parameters: { Self.appAccountToken(in: request.body) }) {
    case .failure(let error):
      return .error(error == .transactionIdNotFound ? .originalTransactionIdNotFound : error)
    case .success(let resolved): (snapshot, token) = resolved
    }
    guard id != snapshot.customer.appTransactionId else {
      return .error(.appTransactionIdNotSupported)
    }
    guard let purchase = snapshot.customer.transactions.first(where: { $0.transactionId == id }),
      purchase.originalTransactionId == id
    else { return .error(.transactionIdIsNotOriginal) }
    guard purchase.ownership != .familyShared else { return .error(.familySharedTransaction) }
    if purchase.ownership == .other("ASSIGNED"), behaviour.assignedPurchaseToken == .refused {
      return .error(.assignedTransactionNotSupported)
    }
    do {
      guard let position = try state.customerPosition(owning: id) else {
        return .error(.originalTransactionIdNotFound)
      }
      _ = try state.setAppAccountToken(token, originalTransactionId: id, customerAt: position)
      return .empty
    } catch let error as WorldFileError {
      return .error(.unreadableWorld(error))
    } catch {
      return .error(
        APIErrorAnswer(code: 5_000_000, message: "The simulator cannot keep the change: \(error)"))
    }
  }

  /// The UUID in the request body, lower-cased.
  static func appAccountToken(in body: [UInt8]) -> Result<String, APIErrorAnswer> {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: body)
    } catch {
      return .failure(.generalBadRequest)
    }
    guard case .object(let members) = value else { return .failure(.generalBadRequest) }
    guard case .string(let token)? = members.first(where: { $0.key == "appAccountToken" })?.value,
      isUUID(token)
    else { return .failure(.invalidAppAccountToken) }
    return .success(token.lowercased())
  }

  /// `8-4-4-4-12` hexadecimal digits.
  static func isUUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (offset, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(offset) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        let isHex =
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        guard isHex else { return false }
      }
    }
    return true
  }
}
