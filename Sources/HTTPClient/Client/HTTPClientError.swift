/// Why a request got no complete answer: a kind to branch on and a sentence for a person.
///
/// The message names the host, what went wrong and, where there is one, what to do next. It
/// never holds header values, so an `Authorization` token cannot leak into a log.
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure it was.
  public enum Kind: String, Sendable, Hashable {
    /// The host name did not resolve.
    case cannotResolve
    /// No TCP connection could be made to any of the host's addresses.
    case cannotConnect
    /// The TLS handshake failed for another reason than the certificate (the connection cut
    /// during it, no protocol in common).
    case tlsFailure
    /// The server's certificate was rejected: not trusted, for another host, outside its
    /// validity. Trying again meets the same certificate.
    case certificateRejected
    /// The request did not finish before its deadline.
    case timedOut
    /// The server closed or reset the connection before the answer was complete.
    case connectionClosed
    /// The body ended before the length its framing announced.
    case truncatedBody
    /// The answer is not HTTP/1.x as the client understands it.
    case malformedResponse
    /// The answer is larger than the configured bound.
    case responseTooLarge
    /// The request cannot be sent: an unsupported scheme, no host, or a bad header.
    case invalidRequest
    /// The task waiting for the answer was cancelled before the request started.
    case cancelled
    /// The client was shut down.
    case shutDown
  }

  /// What kind of failure it was.
  public var kind: Kind
  /// A sentence naming the host, the reason and the next step.
  public var message: String
  /// Whether any byte of the answer had arrived; a request may be sent again on a new
  /// connection only when none had.
  public var receivedAnswerBytes: Bool

  /// A failure of `kind` described by `message`.
  ///
  /// - Parameters:
  ///   - kind: What kind of failure it was.
  ///   - message: A sentence naming the host, the reason and the next step.
  ///   - receivedAnswerBytes: Whether any byte of the answer had arrived.
  public init(_ kind: Kind, _ message: String, receivedAnswerBytes: Bool = false) {
    self.kind = kind
    self.message = message
    self.receivedAnswerBytes = receivedAnswerBytes
  }

  /// The message.
  public var description: String { message }
}
