import Chronology
import Entitlements
import Foundation
import MigrationPipeline
import TestDirectories
import Testing

/// `fixes.csv` is what the team's table should hold: read back with the reader that reads the
/// team's table, loaded over the table by account and product, and compared again at the same
/// instant, every account it lists classifies `match` against the table.
@Suite("End to end: fixes.csv loaded into the team table makes its accounts match")
struct FixesRoundTripTests {
  /// A table as CSV in the documented shape, rows by account then product.
  static func csv(_ rows: [AccountKey: [TableRow]]) -> String {
    var lines = ["account_id,product_id,status,expires_at,original_transaction_id"]
    for (account, accountRows) in rows.sorted(by: { $0.key.id < $1.key.id }) {
      for row in accountRows.sorted(by: { $0.productId < $1.productId }) {
        lines.append(
          [
            account.id, row.productId, row.status.rawValue, row.expiresAt?.iso8601 ?? "",
            row.customerId ?? "",
          ].joined(separator: ","))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("every account fixes.csv lists matches once its rows are loaded; the others are untouched")
  func roundTrip() async throws {
    let world = try EndToEnd.world(seed: 41, accounts: 160)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    var options = try EndToEnd.options(
      world: world, reports: scratch.appendingPathComponent("r"), runId: "first")
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    let before = Dictionary(
      uniqueKeysWithValues: try outcome.run.comparisons().map { ($0.accountId, $0) })
    let fixesPath = outcome.reportDirectory + "/fixes.csv"
    let text = try String(contentsOfFile: fixesPath, encoding: .utf8)
    // The world's table keeps its header: the file's is the same.
    let tableText = try String(contentsOfFile: "\(world)/current-entitlements.csv", encoding: .utf8)
    let tableHeader = tableText.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let columns = ["account_id", "product_id", "status", "expires_at"]
    let expectedHeader: String = tableHeader.split(separator: ",").map(String.init)
      .filter { columns.contains($0) }.joined(separator: ",")
    let header: String = text.split(separator: "\r\n").first.map(String.init) ?? ""
    #expect(header == expectedHeader)
    let runJSON = try String(contentsOfFile: outcome.reportDirectory + "/run.json", encoding: .utf8)
    #expect(runJSON.contains("\"fixes_file\": \"fixes.csv\""))

    // Read back as a team table, by the reader of the team's table.
    let fixes = try CurrentEntitlementsReader.read(fixesPath)
    #expect(fixes.rejected.isEmpty, "\(fixes.rejected)")
    #expect(!fixes.rows.isEmpty, "the world's table has wrong rows to fix")
    let listed = Set(fixes.rows.keys.map(\.id))
    // Every account whose table category is not a match (and can be judged) is listed.
    for (account, comparison) in before {
      guard let category = comparison.tableCategory else { continue }
      // An account the data cannot decide (shared, sandbox only, unresolved, …) is never
      // listed: its App Store side is partial or not its own.
      let judged =
        comparison.keys.contains { $0.tableCategory != nil }
        && comparison.keys.allSatisfy { $0.tableCategory != .durationUnknown }
        && (!comparison.category.isAccountLevel || comparison.category == .idsOnly)
      if category != .match && judged {
        #expect(listed.contains(account), "\(account) (\(category)) is not in fixes.csv")
      }
    }
    for account in listed {
      #expect(before[account]?.tableCategory != .match, "\(account) matched yet is listed")
      let category = before[account]?.category
      #expect(
        category?.isAccountLevel != true || category == .idsOnly,
        "\(account) (\(String(describing: category))) cannot be decided yet is listed")
    }

    // Loaded as a team would: by account and product, a row updated or inserted.
    var table = try CurrentEntitlementsReader.read("\(world)/current-entitlements.csv").rows
    for (account, rows) in fixes.rows {
      for fix in rows {
        var accountRows = table[account] ?? []
        if let index = accountRows.firstIndex(where: { $0.productId == fix.productId }) {
          accountRows[index].status = fix.status
          accountRows[index].expiresAt = fix.expiresAt
        } else {
          var inserted = fix
          inserted.customerId = accountRows.first?.customerId
          accountRows.append(inserted)
        }
        table[account] = accountRows
      }
    }
    let loaded = scratch.appendingPathComponent("loaded.csv")
    try Data(Self.csv(table).utf8).write(to: loaded)

    options.currentEntitlementsPath = loaded.path
    options.runId = "after-fixes"
    let again = try EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .compare()
    let after = Dictionary(
      uniqueKeysWithValues: try again.comparisons().map { ($0.accountId, $0) })
    for account in listed.sorted() {
      #expect(
        after[account]?.tableCategory == .match,
        "\(account): \(after[account]?.tableCategory?.rawValue ?? "none") after loading its fixes")
    }
    for (account, comparison) in before where !listed.contains(account) {
      #expect(after[account]?.tableCategory == comparison.tableCategory, "\(account) changed")
    }
  }

  @Test("the table's own words and expiry format come back: a yes/no table in Unix milliseconds")
  func tableVocabulary() async throws {
    let world = try EndToEnd.world(seed: 41, accounts: 160)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    // The world's table rewritten as another team keeps it: its own header, true/false words,
    // Unix milliseconds.
    let original = try CurrentEntitlementsReader.read("\(world)/current-entitlements.csv").rows
    var lines = ["Product_ID,Account_ID,Expires_At,Status"]
    for (account, rows) in original.sorted(by: { $0.key.id < $1.key.id }) {
      for row in rows {
        let expiry = row.expiresAt.map { String($0.millisecondsSince1970) } ?? ""
        lines.append(
          "\(row.productId),\(account.id),\(expiry),\(row.status.isEntitled ? "TRUE" : "FALSE")")
      }
    }
    let table = scratch.appendingPathComponent("yes-no.csv")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: table)
    var options = try EndToEnd.options(
      world: world, reports: scratch.appendingPathComponent("r"), runId: "yes-no")
    options.currentEntitlementsPath = table.path
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    let text = try String(contentsOfFile: outcome.reportDirectory + "/fixes.csv", encoding: .utf8)
    let rows: [[String]] = text.split(separator: "\r\n").map { line in
      line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(rows.first == ["Product_ID", "Account_ID", "Expires_At", "Status"])
    #expect(rows.count > 1)
    for row in rows.dropFirst() {
      #expect(["TRUE", "FALSE"].contains(row[3]), "\(row)")
      #expect(row[2].isEmpty || row[2].allSatisfy(\.isNumber), "\(row)")
    }
    #expect(try CurrentEntitlementsReader.read(table.path).rejected.isEmpty)
  }
}
