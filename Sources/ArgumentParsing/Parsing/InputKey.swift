/// Identifies one argument property: the property names from the command down to it, so that
/// two option groups may both have a property called `verbose`.
struct InputKey: Hashable, Sendable, CustomStringConvertible {
  var path: [String]

  /// The property's own name, from which its default argument names come.
  var name: String { path.last ?? "" }

  var description: String { path.joined(separator: ".") }

  func appending(_ component: String) -> InputKey {
    InputKey(path: path + [component])
  }
}
