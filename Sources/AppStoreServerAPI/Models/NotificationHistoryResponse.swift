import JSON

/// One page of notification history (20 per page), each notification verified on its own: one
/// that fails verification is set aside in ``invalidItems`` with its reason, and the page's
/// valid ones are kept — a bad signature never throws a page away.
public struct NotificationHistoryResponse: Sendable, Hashable {
  /// The token to send for the next page.
  public var paginationToken: String?
  /// Whether more pages follow.
  public var hasMore: Bool
  /// The page's verified notifications, in the page's order.
  public var items: [NotificationHistoryItem]
  /// The page's notifications that failed verification, in the page's order.
  public var invalidItems: [InvalidNotificationHistoryItem]

  /// A page from its parts.
  ///
  /// - Parameters:
  ///   - paginationToken: The token for the next page.
  ///   - hasMore: Whether more pages follow.
  ///   - items: The verified notifications.
  ///   - invalidItems: The notifications that failed verification.
  public init(
    paginationToken: String?, hasMore: Bool, items: [NotificationHistoryItem],
    invalidItems: [InvalidNotificationHistoryItem] = []
  ) {
    self.paginationToken = paginationToken
    self.hasMore = hasMore
    self.items = items
    self.invalidItems = invalidItems
  }

  /// Writes the page as the API sends it.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("paginationToken", paginationToken)
    writer.field("hasMore", hasMore)
    writer.key("notificationHistory")
    writer.beginArray()
    for item in items {
      writer.beginObject()
      writer.member("signedPayload", item.notification.jws)
      writer.key("sendAttempts")
      writer.beginArray()
      for attempt in item.sendAttempts { attempt.write(to: &writer) }
      writer.endArray()
      writer.endObject()
    }
    for item in invalidItems {
      writer.beginObject()
      writer.member("signedPayload", item.jws)
      writer.key("sendAttempts")
      writer.beginArray()
      for attempt in item.sendAttempts { attempt.write(to: &writer) }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
  }

  static func decode(_ body: [UInt8], verifier: SignedDataVerifier)
    throws(ResponseDecodingFailure) -> NotificationHistoryResponse
  {
    var page = NotificationHistoryResponse(paginationToken: nil, hasMore: false, items: [])
    var raw: [(String?, [SendAttempt])] = []
    try ResponseDecodingFailure.reading(body) { reader throws(JSONError) in
      try reader.beginObject()
      while let key = try reader.nextKey() {
        switch key {
        case "paginationToken": page.paginationToken = try reader.readOptionalString()
        case "hasMore": page.hasMore = try reader.readOptionalBool() ?? false
        case "notificationHistory":
          raw =
            try reader.readOptionalArray { reader throws(JSONError) in
              var signed: String?
              var attempts: [SendAttempt] = []
              try reader.beginObject()
              while let key = try reader.nextKey() {
                switch key {
                case "signedPayload": signed = try reader.readOptionalString()
                case "sendAttempts":
                  attempts =
                    try reader.readOptionalArray { reader throws(JSONError) in
                      try SendAttempt.read(from: &reader)
                    } ?? []
                default: try reader.skipValue()
                }
              }
              return (signed, attempts)
            } ?? []
        default: try reader.skipValue()
        }
      }
    }
    for (signed, attempts) in raw {
      guard let signed else {
        page.invalidItems.append(
          InvalidNotificationHistoryItem(
            jws: "", sendAttempts: attempts, reason: "the item has no signedPayload",
            unverified: nil))
        continue
      }
      do {
        page.items.append(
          NotificationHistoryItem(
            notification: try verifier.verifyNotification(signed), sendAttempts: attempts))
      } catch {
        page.invalidItems.append(
          InvalidNotificationHistoryItem(
            jws: signed, sendAttempts: attempts, reason: error.description,
            unverified: UnverifiedNotification.read(signed)))
      }
    }
    return page
  }
}
