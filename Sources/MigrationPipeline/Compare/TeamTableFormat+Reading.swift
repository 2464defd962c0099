import Foundation
import LegacyReceipts
import MigrationReports

extension TeamTableFormat {
  /// How many rows are looked at to learn the table's words: enough to meet both words of a
  /// yes/no table, without reading a million-row table a second time.
  static let rowsSampled = 10_000

  /// The format of the team's table at `path`, learnt from its header and first rows, so that
  /// `fixes.csv` has the header the team gave (names, order, case) and its words.
  ///
  /// Statuses: the labels (`active`, `expired`, …), in upper case only when every label seen
  /// was; or, when the table uses no label at all, its own words for access and for none
  /// (`entitled` / `not_entitled`, `true` / `false`, `1` / `0`, as spelt). Expiries: Unix
  /// milliseconds when the first expiry given is a number, ISO 8601 otherwise.
  ///
  /// - Parameter path: the table's file, as the run's recipe records it.
  /// - Returns: the format, or `nil` when the file cannot be read any more (a report written
  ///   again after the table was moved): ``standard`` is then the best guess.
  public static func read(path: String?) -> TeamTableFormat? {
    guard let path, let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    var lines = LineSplitter()
    var header: [String]?
    var sampled = 0
    var labels = 0
    var uppercaseLabels = 0
    var entitledWord: String?
    var notEntitledWord: String?
    var expiryStyle: ExpiryStyle?
    var statusColumn: Int?
    var expiresColumn: Int?
    func note(_ line: String) {
      let fields = CSVFields.split(Substring(line))
      guard header != nil else {
        header = CSVFields.split(CSVFields.withoutByteOrderMark(Substring(line)))
        let names = header?.map { $0.lowercased() } ?? []
        statusColumn = names.firstIndex(of: Field.status.rawValue)
        expiresColumn = names.firstIndex(of: Field.expiresAt.rawValue)
        return
      }
      sampled += 1
      if let statusColumn, statusColumn < fields.count, !fields[statusColumn].isEmpty {
        let status = fields[statusColumn]
        if EntitlementStatus(rawValue: status.lowercased()) != nil {
          labels += 1
          if status != status.lowercased() { uppercaseLabels += 1 }
        } else if ["entitled", "true", "1"].contains(status.lowercased()) {
          entitledWord = entitledWord ?? status
        } else if ["not_entitled", "false", "0"].contains(status.lowercased()) {
          // Only a word the table reader takes as "no access": a rejected or mistyped status
          // must never become the word fixes.csv writes.
          notEntitledWord = notEntitledWord ?? status
        }
      }
      if expiryStyle == nil, let expiresColumn, expiresColumn < fields.count,
        !fields[expiresColumn].isEmpty
      {
        expiryStyle =
          fields[expiresColumn].allSatisfy(\.isASCII)
            && fields[expiresColumn].allSatisfy(\.isNumber)
          ? .unixMilliseconds : .iso8601
      }
    }
    reading: while sampled < rowsSampled {
      guard let block = try? file.read(upToCount: 1 << 16), !block.isEmpty else {
        if let last = lines.finish() { note(last) }
        break reading
      }
      for line in lines.feed(block) where sampled < rowsSampled {
        if header != nil && CSVFields.trimmed(Substring(line), newlines: true).isEmpty { continue }
        note(line)
      }
    }
    guard let header else { return nil }
    let columns = header.compactMap { name -> (field: Field, name: String)? in
      Field(rawValue: name.lowercased()).map { ($0, name) }
    }
    let words: StatusWords
    if labels == 0, entitledWord != nil || notEntitledWord != nil {
      words = .access(
        entitled: entitledWord ?? counterpart(of: notEntitledWord ?? "not_entitled"),
        notEntitled: notEntitledWord ?? counterpart(of: entitledWord ?? "entitled"))
    } else {
      words = .labels(uppercase: labels > 0 && uppercaseLabels == labels)
    }
    return TeamTableFormat(
      columns: columns, statusWords: words, expiryStyle: expiryStyle ?? .iso8601)
  }

  /// The other word of a pair the table used only one of, in its case: `true` for `false`,
  /// `NOT_ENTITLED` for `ENTITLED`.
  static func counterpart(of word: String) -> String {
    let lower = word.lowercased()
    for (yes, no) in [("entitled", "not_entitled"), ("true", "false"), ("1", "0")] {
      guard lower == yes || lower == no else { continue }
      let other = lower == yes ? no : yes
      return word != lower ? other.uppercased() : other
    }
    return "not_entitled"
  }
}
