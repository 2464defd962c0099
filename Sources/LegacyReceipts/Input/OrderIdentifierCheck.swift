/// Decides whether text read from an archive can be an App Store order id: the id on the
/// receipt e-mail Apple sends for a purchase (such as `MK5TTTVWJH`), which Look Up Order ID
/// turns into the customer's transactions.
///
/// Apple documents the id as a string without specifying its alphabet; the ids customers see
/// are letters and digits. Anything else — a masked id, text with spaces or punctuation — is
/// refused here with the reason, never sent.
enum OrderIdentifierCheck {
  /// The longest id accepted, in characters.
  static let maximumLength = 64

  /// Why `id` cannot be an order id, or `nil` when it can.
  ///
  /// - Parameters:
  ///   - id: the text as read.
  ///   - field: the name the record gave it, for the message.
  /// - Returns: the reason and the sentence, or `nil`.
  static func problem(with id: String, field: String)
    -> (reason: QuarantineReason, detail: String)?
  {
    let shown = id.count > 40 ? id.prefix(40) + "…" : Substring(id)
    if MaskedValue.isMask(id) {
      return (
        .masked,
        "\(field) is masked ('\(shown)'); the archive removed the id, so it cannot be looked up"
      )
    }
    guard id.utf8.count <= maximumLength else {
      return (
        .malformedOrderId,
        "\(field) '\(shown)' has \(id.utf8.count) characters; order ids are short codes such as MK5TTTVWJH"
      )
    }
    let isAlphanumeric = id.utf8.allSatisfy {
      ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
    }
    guard !id.isEmpty, isAlphanumeric else {
      return (
        .malformedOrderId,
        "\(field) '\(shown)' is not an order id: order ids are letters and digits, such as MK5TTTVWJH"
      )
    }
    return nil
  }
}
