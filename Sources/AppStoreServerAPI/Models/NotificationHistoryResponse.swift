import JSON

/// One page of notification history (20 per page), every notification verified.
public struct NotificationHistoryResponse: Sendable, Hashable {
  /// The token to send for the next page.
  public var paginationToken: String?
  /// Whether more pages follow.
  public var hasMore: Bool
  /// The page's notifications.
  public var items: [NotificationHistoryItem]

  /// A page from its parts.
  ///
  /// - Parameters:
  ///   - paginationToken: The token for the next page.
  ///   - hasMore: Whether more pages follow.
  ///   - items: The notifications.
  public init(paginationToken: String?, hasMore: Bool, items: [NotificationHistoryItem]) {
    self.paginationToken = paginationToken
    self.hasMore = hasMore
    self.items = items
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
      guard let signed else { throw .shape("a notificationHistory item has no signedPayload") }
      do {
        page.items.append(
          NotificationHistoryItem(
            notification: try verifier.verifyNotification(signed), sendAttempts: attempts))
      } catch {
        throw .verification(error)
      }
    }
    return page
  }
}
