import Chronology
import LegacyReceipts

/// How a team wrote its entitlement table, so that `fixes.csv` comes back in that shape: the
/// header's names and order, the words for a status, and how an expiry is written.
///
/// Read from the table's file when the report is written (see `TeamTableFormat.read(path:)` in
/// MigrationPipeline); ``standard`` when the file is gone.
public struct TeamTableFormat: Hashable, Sendable {
  /// A column the tool reads.
  public enum Field: String, Hashable, Sendable, CaseIterable {
    /// `account_id`.
    case accountId = "account_id"
    /// `product_id`.
    case productId = "product_id"
    /// `status`.
    case status
    /// `expires_at`.
    case expiresAt = "expires_at"
  }

  /// How the table writes a status.
  public enum StatusWords: Hashable, Sendable {
    /// The labels `active`, `expired`, `billing_retry`, `grace_period`, `revoked`, in upper
    /// case when every label the table used was.
    case labels(uppercase: Bool)
    /// One word for access (`entitled`, `true`, `1`) and one for none, as the table spelt them.
    case access(entitled: String, notEntitled: String)
  }

  /// How the table writes an expiry.
  public enum ExpiryStyle: String, Hashable, Sendable {
    /// ISO 8601 (`2025-11-01T00:00:00Z`).
    case iso8601
    /// Unix milliseconds.
    case unixMilliseconds
  }

  /// The columns the tool reads, in the header's order, each with its name as the header spells
  /// it. Columns the tool does not read are left out: a fix-up row cannot know their values.
  public var columns: [(field: Field, name: String)]
  /// How a status is written.
  public var statusWords: StatusWords
  /// How an expiry is written.
  public var expiryStyle: ExpiryStyle

  /// Creates a format.
  ///
  /// - Parameters:
  ///   - columns: the columns read, in the header's order, with their names.
  ///   - statusWords: how a status is written.
  ///   - expiryStyle: how an expiry is written.
  public init(
    columns: [(field: Field, name: String)], statusWords: StatusWords, expiryStyle: ExpiryStyle
  ) {
    self.columns = columns
    self.statusWords = statusWords
    self.expiryStyle = expiryStyle
  }

  /// The documented shape: `account_id,product_id,status,expires_at`, status labels, ISO 8601.
  public static let standard = TeamTableFormat(
    columns: Field.allCases.map { ($0, $0.rawValue) }, statusWords: .labels(uppercase: false),
    expiryStyle: .iso8601)

  /// A status as the table writes it.
  ///
  /// - Parameter status: the status.
  /// - Returns: its word.
  public func text(_ status: EntitlementStatus) -> String {
    switch statusWords {
    case .labels(let uppercase): uppercase ? status.rawValue.uppercased() : status.rawValue
    case .access(let entitled, let notEntitled): status.isEntitled ? entitled : notEntitled
    }
  }

  /// An expiry as the table writes it; empty for none.
  ///
  /// - Parameter expiry: the instant.
  /// - Returns: its text.
  public func text(_ expiry: Timestamp?) -> String {
    guard let expiry else { return "" }
    switch expiryStyle {
    case .iso8601: return expiry.iso8601
    case .unixMilliseconds: return String(expiry.millisecondsSince1970)
    }
  }

  // MARK: - Hashable

  /// Two formats are equal when they write every row alike.
  public static func == (lhs: TeamTableFormat, rhs: TeamTableFormat) -> Bool {
    lhs.columns.map(\.field) == rhs.columns.map(\.field)
      && lhs.columns.map(\.name) == rhs.columns.map(\.name)
      && lhs.statusWords == rhs.statusWords && lhs.expiryStyle == rhs.expiryStyle
  }

  /// Hashes what ``==`` compares.
  ///
  /// - Parameter hasher: the hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(columns.map(\.field))
    hasher.combine(columns.map(\.name))
    hasher.combine(statusWords)
    hasher.combine(expiryStyle)
  }
}
