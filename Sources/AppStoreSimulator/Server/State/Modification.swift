import Chronology

/// A change the server made to a purchase after the world was generated (a new app account
/// token): the purchase's transactions move to a later last-modified position and are signed
/// again, with a later `signedDate`.
struct Modification: Hashable, Sendable {
  /// Counts the server's changes, 1 for the first: it makes signing-cache keys distinct.
  var version: Int64
  /// `world.now` plus `version` milliseconds: later than anything the world holds, and strictly
  /// increasing, so modified transactions sort after everything else in ascending history.
  var at: Timestamp
}
