/// How many accounts moved in each way between two runs, on one side.
public struct ChangeCounts: Hashable, Sendable {
  /// Counts by kind (every kind present).
  public var byKind: [ChangeKind: Int]

  /// Creates counts.
  public init(byKind: [ChangeKind: Int] = [:]) {
    var all: [ChangeKind: Int] = [:]
    for kind in ChangeKind.allCases { all[kind] = byKind[kind] ?? 0 }
    self.byKind = all
  }

  /// The count of one kind.
  public subscript(kind: ChangeKind) -> Int { byKind[kind] ?? 0 }

  /// Accounts whose category changed (new findings, resolved, other categories).
  public var changed: Int { self[.newFinding] + self[.resolved] + self[.categoryChanged] }
}
