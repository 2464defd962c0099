import COpenSSL
import Synchronization

/// A pool of `EVP_PKEY_CTX`s for one key, initialized once for signing or for verification.
///
/// Creating and initializing a context costs a provider lookup under OpenSSL's global locks;
/// reusing an initialized context for many `EVP_PKEY_sign`/`EVP_PKEY_verify` calls is allowed and
/// cheap. A context holds per-operation state, so it must never be used by two threads at once:
/// each call takes a context out of the pool (or makes a new one), uses it alone, and puts it back.
final class EVPKeyContextPool: @unchecked Sendable {
  // @unchecked Sendable is sound: `key` is an immutable pointer to an EVP_PKEY that OpenSSL 3
  // allows to be used concurrently for signing and verification, and each idle context is owned
  // by `idle`'s mutex until a call removes it, after which only that call touches it.

  enum Operation {
    case sign
    case verify
  }

  private let key: OpaquePointer
  private let operation: Operation
  private let idle = Mutex<[IdleContext]>([])

  /// An `EVP_PKEY_CTX` at rest in the pool.
  private struct IdleContext: @unchecked Sendable {
    // @unchecked Sendable is sound: a context is either in `idle` (reachable only under the
    // mutex) or held by exactly one `withContext` call; it is never in both places at once.
    let pointer: OpaquePointer
  }

  /// Beyond this many idle contexts, returned ones are freed: enough for every core of a large
  /// machine, bounded so that a burst of threads does not pin memory forever.
  private static let maximumIdleCount = 64

  /// A pool for `key`, which it retains for its own lifetime.
  init(key: OpaquePointer, operation: Operation) {
    EVP_PKEY_up_ref(key)
    self.key = key
    self.operation = operation
  }

  deinit {
    idle.withLock { contexts in
      for context in contexts { EVP_PKEY_CTX_free(context.pointer) }
      contexts.removeAll()
    }
    EVP_PKEY_free(key)
  }

  /// Calls `body` with a context that no other thread uses until `body` returns.
  ///
  /// Returns `nil` when OpenSSL cannot create or initialize a context (out of memory).
  func withContext<Result>(_ body: (OpaquePointer) -> Result) -> Result? {
    let reused = idle.withLock { contexts in contexts.popLast()?.pointer }
    guard let context = reused ?? makeContext() else { return nil }
    let result = body(context)
    let pooled = idle.withLock { contexts in
      guard contexts.count < Self.maximumIdleCount else { return false }
      contexts.append(IdleContext(pointer: context))
      return true
    }
    if !pooled { EVP_PKEY_CTX_free(context) }
    return result
  }

  private func makeContext() -> OpaquePointer? {
    guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return nil }
    let initialized =
      switch operation {
      case .sign: EVP_PKEY_sign_init(context)
      case .verify: EVP_PKEY_verify_init(context)
      }
    // Fixing the digest makes OpenSSL reject anything but a 32-byte SHA-256 digest.
    guard initialized == 1, EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1 else {
      EVP_PKEY_CTX_free(context)
      return nil
    }
    return context
  }
}
