/// An input that could not be accepted: where it is, why, and a short, sanitised excerpt.
/// Quarantined inputs are stored and counted, never silently dropped.
public struct QuarantinedRecord: Hashable, Sendable, CustomStringConvertible {
  /// The stable category of the problem, used to group counts in summaries.
  public var reason: QuarantineReason
  /// The full explanation, naming the field and offset where known.
  public var detail: String
  /// Where the input was read.
  public var position: RecordPosition
  /// At most a few hundred bytes of the input, with receipt data redacted.
  public var excerpt: String

  /// Creates a quarantine entry.
  ///
  /// - Parameters:
  ///   - reason: the category.
  ///   - detail: the full explanation.
  ///   - position: where the input was read.
  ///   - excerpt: a sanitised excerpt.
  public init(reason: QuarantineReason, detail: String, position: RecordPosition, excerpt: String) {
    self.reason = reason
    self.detail = detail
    self.position = position
    self.excerpt = excerpt
  }

  /// `Legacy/a.ndjson:3 (byte 120): truncated JSON — ...`.
  public var description: String { "\(position): \(reason.rawValue): \(detail)" }
}
