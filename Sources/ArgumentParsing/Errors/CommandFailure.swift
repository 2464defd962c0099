/// An error a command reports with its own exit code and message, instead of the generic
/// "internal error" (code 70) that other errors get.
///
/// ```swift
/// struct CredentialsMissing: CommandFailure {
///   var exitCode: ExitCode { ExitCode(3) }
///   var message: String { "ASC_KEY_ID is not set; export it or pass --key-id" }
/// }
/// ```
public protocol CommandFailure: Error {
  /// The status the tool exits with.
  var exitCode: ExitCode { get }
  /// What is printed after `Error: ` on standard error; nothing is printed when empty.
  var message: String { get }
}
