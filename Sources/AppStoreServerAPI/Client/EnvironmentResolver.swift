import Synchronization

/// Finds the environment a customer lives in: production first (or a remembered or hinted
/// environment), the other one on 4040010, and remembers the answer per id so that later calls
/// go straight there.
///
/// Thread safety: shared by all tasks of a client; the memory is behind a mutex.
public final class EnvironmentResolver: Sendable {
  private let known = Mutex<[String: AppStoreEnvironment]>([:])

  /// An empty resolver.
  public init() {}

  /// The environment that answered for `id` before, if any.
  ///
  /// - Parameter id: A transaction id.
  /// - Returns: The environment, or `nil`.
  public func environment(for id: String) -> AppStoreEnvironment? {
    known.withLock { $0[id] }
  }

  /// Remembers that `environment` answered for `id` (to seed the resolver from a store).
  ///
  /// - Parameters:
  ///   - environment: The environment.
  ///   - id: The transaction id.
  public func remember(_ environment: AppStoreEnvironment, for id: String) {
    known.withLock { $0[id] = environment }
  }

  /// Forgets what answered for `id`.
  ///
  /// - Parameter id: The transaction id.
  public func forget(_ id: String) {
    known.withLock { _ = $0.removeValue(forKey: id) }
  }

  /// Runs `operation` in the environment that knows `id`.
  ///
  /// - Parameters:
  ///   - id: The transaction id the operation is about.
  ///   - hint: The environment to try first when none is remembered (a legacy receipt's
  ///     `environment`); production when `nil`.
  ///   - operation: The call, given the environment to call.
  /// - Returns: The operation's result and the environment that answered.
  /// - Throws: ``AppStoreAPIError`` from the operation; when both environments answer 4040010,
  ///   one of kind ``AppStoreAPIError/Kind/notFoundInAnyEnvironment(tried:)``.
  public func resolve<Value: Sendable>(
    id: String, hint: AppStoreEnvironment? = nil,
    _ operation: (AppStoreEnvironment) async throws(AppStoreAPIError) -> Value
  ) async throws(AppStoreAPIError) -> EnvironmentResolution<Value> {
    let first = environment(for: id) ?? hint ?? .production
    do {
      let value = try await operation(first)
      remember(first, for: id)
      return EnvironmentResolution(value: value, environment: first)
    } catch {
      guard error.isTransactionIdNotFound, let second = first.fallback else { throw error }
      do {
        let value = try await operation(second)
        remember(second, for: id)
        return EnvironmentResolution(value: value, environment: second)
      } catch {
        guard error.isTransactionIdNotFound else { throw error }
        throw AppStoreAPIError(
          .notFoundInAnyEnvironment(tried: [first, second]), endpoint: error.endpoint,
          environment: second, requestedId: id)
      }
    }
  }
}
