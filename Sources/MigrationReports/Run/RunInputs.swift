/// What a run read: legacy records and the accounts they named.
public struct RunInputs: Hashable, Sendable {
  /// Legacy records read from the inputs.
  public var recordsRead: Int
  /// Records accepted into the store.
  public var recordsAccepted: Int
  /// Records set aside as unreadable.
  public var recordsQuarantined: Int
  /// Accounts in the store.
  public var accounts: Int

  /// Creates input counts.
  ///
  /// - Parameters:
  ///   - recordsRead: legacy records read.
  ///   - recordsAccepted: records accepted.
  ///   - recordsQuarantined: records quarantined.
  ///   - accounts: accounts in the store.
  public init(recordsRead: Int, recordsAccepted: Int, recordsQuarantined: Int, accounts: Int) {
    self.recordsRead = recordsRead
    self.recordsAccepted = recordsAccepted
    self.recordsQuarantined = recordsQuarantined
    self.accounts = accounts
  }
}
