/// Why the two sides differ at the comparison instant, judged by comparing them again at the
/// legacy response's capture instant — or, for a key the comparison cannot judge without the
/// catalogue, that the catalogue lacks what it needs.
public enum DifferenceCause: String, CaseIterable, Hashable, Sendable {
  /// They disagree at the capture instant too: the two logics (or the data each sees) read the
  /// same moment differently.
  case logic
  /// They agree at the capture instant: the App Store's truth changed after the snapshot.
  case freshness
  /// No capture instant is known, so the cause cannot be told.
  case undetermined
  /// Nothing changed and neither logic erred: the comparison lacks an input the team gives
  /// it, a non-renewing subscription's duration in the product catalogue
  /// (`duration_unknown`).
  case catalogue
}
