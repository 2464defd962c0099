extension JWSTransaction {
  /// How the transaction was revoked, as the entitlement logic must read it: `revocationType`
  /// when Apple sent one; otherwise, for a revoked family-shared transaction whose
  /// `revocationReason` is 0, ``RevocationType/familyRevoke``, because Apple documents that a
  /// family member losing access through Family Sharing is revoked for reason 0 and older
  /// payloads carry no `revocationType`; `nil` otherwise (including for transactions that are
  /// not revoked).
  public var effectiveRevocationType: RevocationType? {
    if let revocationType { return revocationType }
    guard revocationDate != nil || revocationReason != nil else { return nil }
    if inAppOwnershipType == .familyShared, revocationReason == .other { return .familyRevoke }
    return nil
  }
}
