import CryptoSupport
import JSON

/// Where a paged walk stands: the opaque `revision` of history and refund history pages, and the
/// `paginationToken` of notification history pages.
///
/// It is base64url JSON of the walk's scope (the customer), a fingerprint of the query (the
/// filters and sort order, which must not change during a walk) and the position of the last
/// item returned (its sort key and id). Anything that does not decode, or names another scope
/// or query, is refused by the endpoint.
struct PageCursor: Hashable, Sendable {
  /// The sort key and id of the last item returned.
  struct Position: Hashable, Sendable, Comparable {
    var key: Int64
    var id: String

    static func < (lhs: Position, rhs: Position) -> Bool {
      (lhs.key, lhs.id) < (rhs.key, rhs.id)
    }
  }

  /// Whose data the walk is over (an `appTransactionId`, or the environment for notifications).
  var scope: String
  /// The fingerprint of the query the walk was started with.
  var query: String
  /// The last item returned, or `nil` before the first.
  var position: Position?
  /// When the token was issued (wall clock, Unix ms), for tokens that expire.
  var issued: Int64? = nil

  /// The token text.
  func encoded() -> String {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("s", scope)
    writer.field("q", query)
    if let position {
      writer.field("k", position.key)
      writer.field("i", position.id)
    }
    if let issued { writer.field("t", issued) }
    writer.endObject()
    return Base64URL.encode(writer.bytes)
  }

  /// Reads a token, or `nil` when it is not one the simulator made.
  static func decode(_ text: String) -> PageCursor? {
    // Any failure to decode means "not a token of ours"; which step failed does not matter to
    // the client, which gets 4000005 or 4000014 either way.
    guard let bytes = try? Base64URL.decode(text),
      case .object(let members)? = try? JSONValue(parsing: bytes)
    else { return nil }
    var scope: String?
    var query: String?
    var key: Int64?
    var id: String?
    var issued: Int64?
    for member in members {
      switch (member.key, member.value) {
      case ("s", .string(let text)): scope = text
      case ("q", .string(let text)): query = text
      case ("k", .number(let text)): key = Int64(text)
      case ("i", .string(let text)): id = text
      case ("t", .number(let text)): issued = Int64(text)
      default: return nil
      }
    }
    guard let scope, let query else { return nil }
    switch (key, id) {
    case (nil, nil): return PageCursor(scope: scope, query: query, position: nil, issued: issued)
    case (let key?, let id?):
      return PageCursor(
        scope: scope, query: query, position: Position(key: key, id: id), issued: issued)
    default: return nil
    }
  }

  /// A short fingerprint of a query's canonical text.
  static func fingerprint(_ canonical: String) -> String {
    String(SHA256.hexDigest(canonical.utf8).prefix(16))
  }
}
