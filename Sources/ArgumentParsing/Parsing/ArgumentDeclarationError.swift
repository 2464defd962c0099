/// A mistake in how a command declares its arguments, found while parsing; it is a bug in the
/// tool, so it exits with code 70 rather than blaming the user.
struct ArgumentDeclarationError: Error {
  var message: String
}
