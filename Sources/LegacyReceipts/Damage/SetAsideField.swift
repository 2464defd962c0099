/// One field of an accepted record that could not be used: set aside with its reason, while the
/// rest of the record is kept. A record with such fields is accepted as *partial*; a record is
/// quarantined only when nothing usable remains of it.
///
/// Real archives carry scars in single fields — a placeholder id in `pending_renewal_info`, a
/// masked `item_id`, a date an export tool rewrote — and one bad field must not cost the
/// record's good ones.
public struct SetAsideField: Hashable, Sendable, CustomStringConvertible {
  /// Where the field is: its JSON path inside the record
  /// (`response.pending_renewal_info[0].original_transaction_id`), or its CSV column.
  public var path: String
  /// Why it was set aside: `masked`, `malformed transaction id`, `malformed order id`,
  /// `wrong type` or `unparsable date`.
  public var reason: QuarantineReason
  /// The full sentence.
  public var detail: String
  /// A short excerpt of the value, sanitised (receipt data is never copied).
  public var excerpt: String
  /// The byte offset of the value inside the record, when known.
  public var byteOffset: Int?

  /// Creates a set-aside field.
  ///
  /// - Parameters:
  ///   - path: the field's path or column.
  ///   - reason: why it was set aside.
  ///   - detail: the full sentence.
  ///   - excerpt: a sanitised excerpt of the value.
  ///   - byteOffset: where the value starts inside the record.
  public init(
    path: String, reason: QuarantineReason, detail: String, excerpt: String,
    byteOffset: Int? = nil
  ) {
    self.path = path
    self.reason = reason
    self.detail = detail
    self.excerpt = excerpt
    self.byteOffset = byteOffset
  }

  /// `response.receipt.item_id: masked: …`.
  public var description: String { "\(path): \(reason.rawValue): \(detail)" }
}
