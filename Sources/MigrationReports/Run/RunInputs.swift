/// What a run read: legacy records and the accounts they named.
public struct RunInputs: Hashable, Sendable {
  /// Legacy records read from the inputs: accepted + partial + quarantined.
  public var recordsRead: Int
  /// Records accepted whole into the store.
  public var recordsAccepted: Int
  /// Records accepted as partial: some fields set aside as unusable, the rest kept.
  public var recordsPartial: Int
  /// Records quarantined as unreadable.
  public var recordsQuarantined: Int
  /// Accounts in the store.
  public var accounts: Int

  /// Creates input counts.
  ///
  /// - Parameters:
  ///   - recordsRead: legacy records read.
  ///   - recordsAccepted: records accepted whole.
  ///   - recordsPartial: records accepted with fields set aside.
  ///   - recordsQuarantined: records quarantined.
  ///   - accounts: accounts in the store.
  public init(
    recordsRead: Int, recordsAccepted: Int, recordsPartial: Int = 0, recordsQuarantined: Int,
    accounts: Int
  ) {
    self.recordsRead = recordsRead
    self.recordsAccepted = recordsAccepted
    self.recordsPartial = recordsPartial
    self.recordsQuarantined = recordsQuarantined
    self.accounts = accounts
  }
}
