/// One spelling of an option or flag on the command line.
enum ArgumentName: Hashable, Sendable {
  case long(String)
  case short(Character)

  /// The name as typed: `--db` or `-o`.
  var synopsis: String {
    switch self {
    case .long(let name): return "--\(name)"
    case .short(let character): return "-\(character)"
    }
  }

  var isShort: Bool {
    if case .short = self { return true }
    return false
  }

  /// The name usage lines show: the first long name, or the first name if all are short.
  static func preferred(in names: [ArgumentName]) -> ArgumentName? {
    names.first { !$0.isShort } ?? names.first
  }
}
