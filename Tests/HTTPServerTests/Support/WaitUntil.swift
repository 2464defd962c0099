import Glibc

/// Yields the processor until `condition` holds, for state the server changes just after the
/// client can observe anything; gives up after ten seconds so a broken server fails the test.
func waitUntil(_ condition: () -> Bool) -> Bool {
  let deadline = ContinuousClock.now + .seconds(10)
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    sched_yield()
  }
  return true
}
