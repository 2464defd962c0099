/// A report that could not be written, with a message that names the thing, the reason and
/// the next step.
public struct ReportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, for callers that branch on the failure.
  public enum Kind: String, Hashable, Sendable {
    /// The run id cannot name a folder.
    case invalidRunId = "invalid_run_id"
    /// The pseudonymisation salt is too short to keep pseudonyms from being reversed.
    case saltTooShort = "salt_too_short"
    /// A folder could not be created.
    case cannotCreateDirectory = "cannot_create_directory"
    /// A report file could not be written.
    case cannotWriteFile = "cannot_write_file"
    /// The `latest` link could not be replaced.
    case cannotLinkLatest = "cannot_link_latest"
  }

  /// What went wrong.
  public var kind: Kind
  /// The file or folder concerned, when there is one.
  public var path: String?
  /// A sentence for a person: the thing, the reason and the next step.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: what went wrong.
  ///   - path: the file or folder concerned.
  ///   - message: the thing, the reason and the next step.
  public init(_ kind: Kind, path: String? = nil, _ message: String) {
    self.kind = kind
    self.path = path
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
