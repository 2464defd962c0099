import COpenSSL

/// A failure of a cryptographic operation, with a message written for the person who must fix it.
///
/// The message names the thing (a file, a key, a certificate), the reason and, where there is one,
/// the next step. When OpenSSL reported the failure, its error queue is drained into
/// ``openSSLErrors`` so that the exact library reason is kept. Neither the message nor the OpenSSL
/// text ever contains key material: callers pass only paths and descriptions, and OpenSSL's error
/// strings carry library, function and reason codes, never the bytes being processed.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, for callers that branch on the failure.
  public let kind: Kind

  /// A sentence for a person: the thing, the reason and the next step.
  public let message: String

  /// OpenSSL's error queue at the moment of failure, oldest first (may be empty).
  public let openSSLErrors: [String]

  /// Creates an error, draining the calling thread's OpenSSL error queue into it.
  ///
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - message: The thing, the reason and the next step.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
    self.openSSLErrors = OpenSSLErrorQueue.drain()
  }

  /// The message, followed by OpenSSL's reasons when it gave any.
  public var description: String {
    guard !openSSLErrors.isEmpty else { return message }
    return "\(message) (OpenSSL: \(openSSLErrors.joined(separator: "; ")))"
  }
}
