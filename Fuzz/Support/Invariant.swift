// Shared by every harness: compiled into each fuzzer beside its harness file.

/// Stops the fuzzer with `message` when an invariant of the code under test does not hold.
///
/// Not `precondition`: harnesses are built with `-O`, where a failed precondition traps without
/// its message, and a finding should say what broke.
///
/// - Parameters:
///   - condition: What must hold.
///   - message: What broke, evaluated only when it did.
@inline(__always)
func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("invariant broken: \(message())") }
}
