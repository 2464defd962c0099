/// Thrown while converting one argument; the parser turns it into a usage error that names the
/// option and the valid values.
struct InvalidArgumentValue: Error {
  /// What a `transform:` closure threw; `nil` when `init?(argument:)` returned `nil`.
  var reason: (any Error)?
}
