import Terminal
import Testing

@Suite("Text tables")
struct TextTableTests {
  @Test("Columns align left or right under a rule, without trailing spaces")
  func alignment() {
    var table = TextTable(columns: [
      .init("Discrepancy"), .init("Accounts", alignment: .right), .init("Share", alignment: .right),
    ])
    table.addRow(["lost access", NumberFormatting.grouped(1234), "12.3%"])
    table.addRow(["gained access", "7", "0.1%"])
    #expect(
      table.rendered() == """
        Discrepancy    Accounts  Share
        -------------  --------  -----
        lost access       1,234  12.3%
        gained access         7   0.1%
        """)
  }

  @Test("A left-aligned last column leaves no trailing spaces")
  func trailingSpaces() {
    var table = TextTable(columns: [.init("Count", alignment: .right), .init("Status")])
    table.addRow(["3", "ok"])
    table.addRow(["12", "unresolved"])
    #expect(
      table.rendered() == """
        Count  Status
        -----  ----------
            3  ok
           12  unresolved
        """)
  }

  @Test("Missing cells are empty and extra cells keep their own column")
  func raggedRows() {
    var table = TextTable(columns: [.init("Name"), .init("Value", alignment: .right)])
    table.addRow(["a"])
    table.addRow(["b", "2", "note"])
    #expect(
      table.rendered() == """
        Name  Value
        ----  -----  ----
        a
        b         2  note
        """)
  }

  @Test("A table without rows is its header")
  func empty() {
    let table = TextTable(columns: [.init("Run"), .init("Accounts", alignment: .right)])
    #expect(table.rendered() == "Run  Accounts\n---  --------")
    #expect(table.rows.isEmpty)
  }
}
