/// Why the two sides differ at the comparison instant, judged by comparing them again at the
/// legacy response's capture instant.
public enum DifferenceCause: String, CaseIterable, Hashable, Sendable {
  /// They disagree at the capture instant too: the two logics (or the data each sees) read the
  /// same moment differently.
  case logic
  /// They agree at the capture instant: the App Store's truth changed after the snapshot.
  case freshness
  /// No capture instant is known, so the cause cannot be told.
  case undetermined
}
