import Entitlements
import Foundation
import Testing

@testable import MigrationReports

extension ReportInChromium {
  /// Navigation in report.html, driven in headless Chromium as a reader would: every kind of link
  /// that filters the account list (a headline card, a line of "what to do first", a chart bar, a
  /// cause, an account id in "since the last run" or among the lost notifications, the audit's
  /// lead) changes the visible rows, takes the reader to the list and moves the focus there; the
  /// menu, the search box and the address then state the filter; the search finds every kind of
  /// id; the keyboard alone can do all of it.
  ///
  /// Independent judge: the browser's own event handling, history, layout and focus decide; the
  /// expected rows come from the sample world's comparisons.
  @Suite("navigation")
  struct BrowserNavigationTests {
    /// A link to follow, and what the list must then show.
    struct Path: Sendable {
      var name: String
      var scenario: Scenario
      /// The link, by CSS selector; the narrow chart's own when the window is a phone's.
      var selector: String
      var narrowSelector: String?
      /// The menu's value (the filter as the address writes it).
      var filter: String
      /// The accounts the list must show.
      var visible: [String]
      /// The account whose own row the link opens, if it is an account's link.
      var account: String?
    }

    static func ids(_ scenario: Scenario, _ include: (AccountComparison) -> Bool) -> [String] {
      scenario.comparisons.filter(include).map(\.accountId)
    }

    static let paths: [Path] = {
      let simulated = Scenario.simulated
      let statistics = ReportStatistics(comparisons: simulated.comparisons, topExplanationCount: 0)
      let first = ActionList.of(statistics, summary: simulated.summary, lostNotifications: 0)[0]
      guard case .filter(let firstFilter) = first.target, case .accounts(let bucket) = first.kind
      else { return [] }
      let firstCategory = DisplayOrder.categories.first { $0 != .match && statistics.count($0) > 0 }
      let firstTable = DisplayOrder.categories.first { statistics.tableCount($0) > 0 }
      let firstCaused = DisplayOrder.categories.first {
        $0 != .match && statistics.count($0) > 0 && statistics.hasCauses($0)
      }
      return [
        Path(
          name: "headline card", scenario: simulated, selector: "#headline-loses_access",
          filter: "impact=loses_access",
          visible: ids(simulated) { $0.category.impact == .losesAccess }),
        Path(
          name: "first line of what to do first", scenario: simulated,
          selector: "#actions li a", filter: firstFilter,
          visible: ids(simulated) {
            bucket == .tableWrong
              ? $0.tableCategory.map(ActionTally.isWrong) ?? false
              : ActionBucket.primary($0) == bucket
          }),
        Path(
          name: "category chart bar", scenario: simulated, selector: "svg#category-chart a rect",
          narrowSelector: "svg#category-chart-narrow a rect",
          filter: "category=\(firstCategory?.rawValue ?? "")",
          visible: ids(simulated) { $0.category == firstCategory }),
        Path(
          name: "team table chart bar", scenario: simulated, selector: "svg#table-chart a rect",
          narrowSelector: "svg#table-chart-narrow a rect",
          filter: "table=\(firstTable?.rawValue ?? "")",
          visible: ids(simulated) { $0.tableCategory == firstTable }),
        Path(
          name: "cause link", scenario: simulated, selector: "#causes a",
          filter: "category=\(firstCaused?.rawValue ?? "")",
          visible: ids(simulated) { $0.category == firstCaused }),
        Path(
          name: "audit lead's new findings", scenario: .audit, selector: "#lead-new a",
          filter: "change=either:new_finding", visible: ["acct-1005", "acct-1007", "acct-1012"]),
        Path(
          name: "since chart bar", scenario: .audit, selector: "svg#since-chart a rect",
          narrowSelector: "svg#since-chart-narrow a rect", filter: "change=new_finding",
          visible: ["acct-1005", "acct-1012"]),
        Path(
          name: "account in since the last run", scenario: .audit, selector: "#changes a.acct",
          filter: "category=", visible: ["acct-1005"], account: "acct-1005"),
        Path(
          name: "resolved account (a match) in since the last run", scenario: .audit,
          selector: "#changes a.acct", filter: "category=", visible: ["acct-1021"],
          account: "acct-1021"),
        Path(
          name: "account of a lost notification", scenario: .audit, selector: "#lost a.acct",
          filter: "category=", visible: ["acct-1005"], account: "acct-1005"),
        Path(
          name: "account among another's evidence", scenario: .simulated,
          selector: "tbody[data-cat=shared_apple_account] .evidence a.acct", filter: "category=",
          visible: ["acct-1019"], account: "acct-1019"),
      ]
    }()

    /// The paths of a scenario, followed one after the other in one browser, each from a fresh
    /// load of the page; the state after each click.
    static func followed(_ scenario: Scenario, width: Int) async throws -> [(Path, [String: Any])] {
      let paths = Self.paths.filter { $0.scenario == scenario }
      let steps = paths.flatMap { path -> [BrowserHarness.Step] in
        let selector = width == 390 ? path.narrowSelector ?? path.selector : path.selector
        // The resolved account is the last change listed; every other path takes the first link.
        let index = path.name.hasPrefix("resolved") ? 4 : 0
        return [.open(""), .click(selector, index: index)]
      }
      let measured = try await BrowserTests.withReport(scenario) { directory in
        try await BrowserHarness.run(reportIn: directory, width: width, steps: steps)
      }
      return paths.enumerated().map { ($1, measured[2 * $0 + 1]) }
    }

    @Test(
      "following a link filters the list, scrolls to it and focuses it",
      arguments: [Scenario.simulated, .audit], [390, 1280])
    func follow(scenario: Scenario, width: Int) async throws {
      for (path, after) in try await Self.followed(scenario, width: width) {
        let name = "\(path.name) at \(width) px"
        #expect(after["error"] == nil || after["error"] is NSNull, "\(name)")
        #expect(
          after["select"] as? String == path.filter,
          "\(name): the menu says \(after["select"] ?? "")")
        let shown = after["visibleIds"] as? [String] ?? []
        if path.account == nil {
          #expect(Set(shown) == Set(path.visible), "\(name): shown \(shown)")
          #expect(
            (after["status"] as? String ?? "").hasPrefix("Showing \(path.visible.count) of "),
            "\(name): \(after["status"] ?? "")")
        } else {
          #expect(shown.contains(path.visible[0]), "\(name): shown \(shown)")
          #expect(after["search"] as? String == path.account, "\(name)")
          #expect(after["revealed"] as? String == "account", "\(name)")
          #expect(
            after["activeText"] as? String == path.account,
            "\(name): focus on \(after["active"] ?? "")")
        }
        let hash = after["hash"] as? String ?? ""
        #expect(
          hash.hasPrefix("#" + (path.account.map { "account=\($0)" } ?? path.filter)),
          "\(name): the address says \(hash)")
        #expect(
          after["activeInList"] as? Bool == true, "\(name): focus is on \(after["active"] ?? "")")
        #expect(after["activeOnScreen"] as? Bool == true, "\(name): the focus is off screen")
        if path.account == nil {
          let top = after["listTop"] as? Int ?? .max
          #expect(abs(top) <= 2, "\(name): the list starts \(top) px from the top of the window")
        }
      }
    }

    /// The kinds of identifier a reader may paste, and an account each finds.
    static let searches = [
      ("acct-1013", "acct-1013"),
      ("stale_renewed", "acct-1008"),
      ("Grace period missed", "acct-1007"),
      ("com.example.pro.yearly", "acct-1003"),
      ("1000000000000099", "acct-1008"),
      ("1000000000000016", "acct-1015"),
      ("7000000000000017", "acct-1017"),
      ("family sharing", "acct-1002"),
    ]

    @Test(
      "the search finds account, category, product, transaction, original transaction and customer ids, and words"
    )
    func search() async throws {
      let measured = try await BrowserTests.withReport { directory in
        try await BrowserHarness.run(
          reportIn: directory, width: 1280, steps: Self.searches.map { .type($0.0) })
      }
      for ((text, account), after) in zip(Self.searches, measured) {
        let shown = after["visibleIds"] as? [String] ?? []
        #expect(shown.contains(account), "\(text) shows \(shown)")
        #expect(after["search"] as? String == text)
        let hash = after["hash"] as? String ?? ""
        #expect(hash.hasSuffix("q=" + text), "the address says \(hash)")
        #expect((after["status"] as? String ?? "").contains("matching"))
      }
    }

    @Test(
      "the keyboard alone: tab stops, Enter goes to the first account, Escape clears the filter")
    func keyboard() async throws {
      let steps = try await BrowserTests.withReport(.audit) { directory in
        try await BrowserHarness.run(
          reportIn: directory, fragment: "action=table_wrong", width: 1280,
          steps: [
            .focusables, .type("acct-10"), .key("Enter", on: "#filter-account"),
            .key("Escape", on: "#filter-account"), .key("Enter", on: "th[data-sort=account]"),
          ])
      }
      // Every link, control and sortable heading can be reached with Tab; nothing jumps the order.
      let focusables = steps[0]["focusables"] as? [[String: Any]] ?? []
      #expect(!focusables.isEmpty)
      for element in focusables where element["shown"] as? Bool == true {
        let name = element["element"] as? String ?? ""
        let index = element["tabIndex"] as? Int ?? -2
        if name.hasPrefix("section") || name.hasPrefix("span#filter-count") {
          #expect(index == -1, "\(name) is a target, not a tab stop")
        } else {
          #expect(index == 0, "\(name) has tabIndex \(index)")
        }
      }
      // Enter in the search box: the first account shown, focused.
      #expect(steps[2]["activeInList"] as? Bool == true)
      #expect(steps[2]["active"] as? String == "a.acct", "focus on \(steps[2]["active"] ?? "")")
      #expect((steps[2]["activeText"] as? String ?? "").hasPrefix("acct-10"))
      // Escape: back to every account that differs, the search empty, the address saying so.
      #expect(steps[3]["select"] as? String == "category=*")
      #expect(steps[3]["search"] as? String == "")
      #expect(steps[3]["hash"] as? String == "#category=*")
      #expect(steps[3]["visible"] as? Int == 24)
      // Enter on a heading sorts by it, and the address keeps the sort.
      #expect((steps[4]["hash"] as? String ?? "").hasSuffix("sort=account"))
    }
  }
}
