import Dispatch

/// Holds handlers inside the server until the test lets them go, so a test can act while a
/// request is provably in progress.
///
/// Waits are bounded by a ten-second safety timeout so a broken server fails the test instead of
/// hanging it; no test relies on the timeout passing.
final class HandlerGate: Sendable {
  private let arrivals = DispatchSemaphore(value: 0)
  private let releases = DispatchSemaphore(value: 0)

  /// Called from a handler: announces the arrival, then blocks until released.
  ///
  /// - Returns: `false` when the test never released it.
  func enterAndWait() -> Bool {
    arrivals.signal()
    return releases.wait(timeout: .now() + 10) == .success
  }

  /// Waits until a handler has entered.
  func waitForArrival() -> Bool {
    arrivals.wait(timeout: .now() + 10) == .success
  }

  /// Lets `count` waiting (or future) handlers go.
  func release(_ count: Int = 1) {
    for _ in 0..<count { releases.signal() }
  }
}
