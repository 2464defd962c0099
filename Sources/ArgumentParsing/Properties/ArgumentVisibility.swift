/// Whether an argument appears in help and usage text.
public enum ArgumentVisibility: Sendable {
  /// Shown in help and usage text.
  case `default`
  /// Accepted on the command line but left out of help and usage text.
  case hidden
}
