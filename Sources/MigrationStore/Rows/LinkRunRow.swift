/// One `link` run as stored: an apply, or the undo of an earlier apply.
public struct LinkRunRow: Hashable, Sendable {
  /// What a link run does.
  public enum Kind: String, Sendable, Hashable {
    /// Sets the mapping's tokens.
    case apply
    /// Restores the tokens an earlier apply replaced.
    case undo
  }

  /// The run id.
  public var id: String
  /// Apply or undo.
  public var kind: Kind
  /// For an undo, the apply it undoes.
  public var undoesRunId: String?
  /// How the tokens were chosen, for people (`tokens.csv`, `derived from <namespace>`).
  public var mapping: String
  /// How the run named the App Store it wrote to; `nil` for runs journaled before schema 11.
  public var appStore: String?
  /// The App Store's identity as the store's provenance records it (`apple <bundle id>`,
  /// `simulator <world fingerprint>`); `nil` for runs journaled before schema 11.
  public var appStoreIdentity: String?
  /// When it started (Unix ms).
  public var startedMilliseconds: Int64
  /// When every write of its plan had an answer, or `nil` while it is open.
  public var finishedMilliseconds: Int64?

  /// Creates a row.
  public init(
    id: String, kind: Kind, undoesRunId: String?, mapping: String, appStore: String? = nil,
    appStoreIdentity: String? = nil, startedMilliseconds: Int64,
    finishedMilliseconds: Int64? = nil
  ) {
    self.id = id
    self.kind = kind
    self.undoesRunId = undoesRunId
    self.mapping = mapping
    self.appStore = appStore
    self.appStoreIdentity = appStoreIdentity
    self.startedMilliseconds = startedMilliseconds
    self.finishedMilliseconds = finishedMilliseconds
  }
}
