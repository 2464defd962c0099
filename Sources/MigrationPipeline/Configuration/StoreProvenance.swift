import Chronology
import Foundation
import JSON
import MigrationReports
import MigrationStore

/// Which App Store a store's backfilled data came from. The first backfill records it; a later
/// one against another App Store (Apple after the simulator, another app, another simulated
/// world) is refused, because the comparison would silently mix two truths.
public enum StoreProvenance {
  /// Records the App Store for a store that has none yet, or checks that it is the same one.
  ///
  /// - Parameters:
  ///   - store: the store.
  ///   - source: how reports name the App Store.
  ///   - identity: ``ConnectedAppStore/identity``.
  ///   - now: the wall clock (Unix ms).
  /// - Throws: ``Mismatch`` when the store holds another App Store's data; `SQLiteError`.
  ///   - clock: the App Store's own clock, if it has one (a simulated world's).
  public static func claim(
    _ store: MigrationStore, source: AppStoreSource, identity: String, clock: Timestamp? = nil,
    now: Int64
  ) throws {
    let stored = try store.claimProperty(
      MigrationStore.appStorePropertyName,
      value: encode(source, identity: identity, clock: clock), now: now)
    guard let recorded = decode(stored), recorded.identity == identity else {
      throw Mismatch(
        path: store.path, recorded: decode(stored)?.source.description ?? stored,
        requested: source.description)
    }
    // The same App Store, served at a later clock (a simulated world played night by night):
    // the store's data now describes that clock, so comparisons default to it.
    if recorded.clock != clock || recorded.source != source {
      try store.setProperty(
        MigrationStore.appStorePropertyName,
        value: encode(source, identity: identity, clock: clock), now: now)
    }
  }

  /// Checks, without recording anything, that a store's data came from this App Store: what a
  /// command that only reads the store's App Store data, or writes to the App Store from it
  /// (`link`), asks first.
  ///
  /// - Parameters:
  ///   - store: the store.
  ///   - source: how reports name the App Store this run talks to.
  ///   - identity: its ``ConnectedAppStore/identity``.
  /// - Returns: the App Store recorded, or `nil` before the store's first backfill.
  /// - Throws: ``Mismatch`` when the store holds another App Store's data; `SQLiteError`.
  @discardableResult
  public static func check(_ store: MigrationStore, source: AppStoreSource, identity: String)
    throws -> AppStoreSource?
  {
    guard let stored = try store.property(MigrationStore.appStorePropertyName) else { return nil }
    guard let recorded = decode(stored), recorded.identity == identity else {
      throw Mismatch(
        path: store.path, recorded: decode(stored)?.source.description ?? stored,
        requested: source.description)
    }
    return recorded.source
  }

  /// The App Store recorded for a store, or `nil` before its first backfill.
  ///
  /// - Parameter store: the store.
  /// - Returns: how reports name it.
  /// - Throws: `SQLiteError`.
  public static func recorded(in store: MigrationStore) throws -> AppStoreSource? {
    try store.property(MigrationStore.appStorePropertyName).flatMap(decode)?.source
  }

  /// The App Store's own clock recorded for a store (a simulated world's), or `nil`.
  ///
  /// - Parameter store: the store.
  /// - Returns: the instant comparisons of the store's data default to.
  /// - Throws: `SQLiteError`.
  public static func recordedClock(in store: MigrationStore) throws -> Timestamp? {
    try store.property(MigrationStore.appStorePropertyName).flatMap(decode)?.clock
  }

  /// A store holds another App Store's data.
  public struct Mismatch: Error, CustomStringConvertible {
    /// The store file.
    public var path: String
    /// The App Store its data came from.
    public var recorded: String
    /// The App Store this run talks to.
    public var requested: String

    /// Says what to do.
    public var description: String {
      "the database \(path) holds data from \(recorded), but this run talks to \(requested); "
        + "use another --db (a store never mixes two App Stores' answers)"
    }
  }

  static func encode(_ source: AppStoreSource, identity: String, clock: Timestamp?) -> String {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("identity", identity)
    writer.field("clock_ms", clock?.millisecondsSince1970)
    writer.field("simulated", source.isSimulated)
    writer.field("description", source.description)
    writer.field("environment", source.environment)
    writer.endObject()
    return writer.string
  }

  static func decode(_ text: String) -> (
    source: AppStoreSource, identity: String, clock: Timestamp?
  )? {
    guard let value = try? JSONValue(parsing: Array(text.utf8)),
      let identity = value["identity"]?.stringValue
    else { return nil }
    return (
      AppStoreSource(
        isSimulated: value["simulated"]?.boolValue ?? false,
        description: value["description"]?.stringValue ?? identity,
        environment: value["environment"]?.stringValue ?? ""),
      identity,
      value["clock_ms"]?.int64Value.map(Timestamp.init(millisecondsSince1970:))
    )
  }
}
