/// What storing a legacy record did.
public enum LegacyRecordInsertion: Hashable, Sendable {
  /// The record was new for its account and was stored as this version.
  case inserted(id: Int64, version: Int)
  /// The account already holds these exact bytes; nothing was added.
  case alreadyStored(id: Int64)

  /// The stored record's id either way.
  public var recordId: Int64 {
    switch self {
    case .inserted(let id, _), .alreadyStored(let id): return id
    }
  }
}
