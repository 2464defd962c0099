import Synchronization

/// Whether the App Store accepts the client's credentials, per environment, decided by one
/// request signed with a fresh token after a 401.
///
/// A 401 can be a token that expired or was signed by a clock that drifted, so the client signs a
/// new token and tries once more. With many requests in flight they all get their 401 at about
/// the same moment; if each tried a fresh token of its own, and every task not yet sent went on
/// sending, a run with a wrong key would send several times its concurrency before it stopped.
/// So the first 401 opens a **probe**: only the request that saw it tries again, every other
/// request of that environment waits for the verdict before it is sent. A 401 on the fresh token
/// means the credentials are wrong: the environment is marked **refused** for the life of the
/// client, and every later request in it fails at once without being sent. A run holds one
/// client, and credentials that were refused do not mend themselves during it.
///
/// Thread safety: shared by every request of a client; the state is behind a mutex, and every
/// waiter is resumed exactly once, when the probe settles.
final class CredentialVerdicts: Sendable {
  /// What a request may do now.
  enum Admission: Equatable {
    /// Send it.
    case send
    /// A probe is in flight: wait for ``verdict(in:)``, then ask again.
    case wait
    /// The credentials were refused: fail without sending.
    case refused
  }

  /// What a probe decided.
  enum Verdict: Equatable {
    /// The fresh token was not refused: send again.
    case accepted
    /// The fresh token got a 401 too.
    case refused
  }

  private struct State {
    var probing: Set<AppStoreEnvironment> = []
    var refused: Set<AppStoreEnvironment> = []
    var waiters: [AppStoreEnvironment: [CheckedContinuation<Verdict, Never>]] = [:]
  }

  private let state = Mutex(State())

  /// Whether a request in `environment` may be sent now.
  ///
  /// - Parameters:
  ///   - environment: The request's environment.
  ///   - isProbe: Whether the request is the probe itself, which is sent while others wait.
  /// - Returns: Send, wait, or fail.
  func admission(in environment: AppStoreEnvironment, isProbe: Bool) -> Admission {
    state.withLock { state in
      if state.refused.contains(environment) { return .refused }
      if state.probing.contains(environment) && !isProbe { return .wait }
      return .send
    }
  }

  /// Notes a 401 in `environment`, before the request that got it gives back its permit (so no
  /// other request slips out in between).
  ///
  /// - Parameter environment: The environment that answered 401.
  /// - Returns: `true` when this 401 opened the probe, and the caller must send it and then
  ///   call ``settle(_:refused:)``.
  func noteRejection(in environment: AppStoreEnvironment) -> Bool {
    state.withLock { state in
      guard !state.refused.contains(environment), !state.probing.contains(environment) else {
        return false
      }
      state.probing.insert(environment)
      return true
    }
  }

  /// Waits until no probe is in flight in `environment`.
  ///
  /// - Parameter environment: The environment.
  /// - Returns: Whether the credentials are still accepted there.
  func verdict(in environment: AppStoreEnvironment) async -> Verdict {
    await withCheckedContinuation { (continuation: CheckedContinuation<Verdict, Never>) in
      let now: Verdict? = state.withLock { state in
        if state.refused.contains(environment) { return .refused }
        guard state.probing.contains(environment) else { return .accepted }
        state.waiters[environment, default: []].append(continuation)
        return nil
      }
      if let now { continuation.resume(returning: now) }
    }
  }

  /// Ends the probe in `environment` and wakes every request waiting for it.
  ///
  /// - Parameters:
  ///   - environment: The environment probed.
  ///   - refused: Whether the fresh token got a 401 too. A probe that ended otherwise (another
  ///     error, a stop) proves nothing against the credentials and leaves them accepted.
  func settle(_ environment: AppStoreEnvironment, refused: Bool) {
    let waiters = state.withLock { state in
      state.probing.remove(environment)
      if refused { state.refused.insert(environment) }
      return state.waiters.removeValue(forKey: environment) ?? []
    }
    for waiter in waiters { waiter.resume(returning: refused ? .refused : .accepted) }
  }

  /// Whether the credentials were refused in `environment`.
  ///
  /// - Parameter environment: The environment.
  /// - Returns: `true` after a probe there got a 401.
  func isRefused(in environment: AppStoreEnvironment) -> Bool {
    state.withLock { $0.refused.contains(environment) }
  }
}
