/// A plain-text table with aligned columns, for the summaries commands print.
///
/// ```swift
/// var table = TextTable(columns: [.init("Discrepancy"), .init("Accounts", alignment: .right)])
/// table.addRow(["lost access", NumberFormatting.grouped(1234)])
/// print(table.rendered())
/// // Discrepancy  Accounts
/// // -----------  --------
/// // lost access     1,234
/// ```
///
/// Widths count characters, so cells should be single-line and free of wide (East Asian)
/// characters and escape sequences.
public struct TextTable: Sendable {
  /// Which side of its column a cell keeps to.
  public enum Alignment: Sendable {
    /// Text: flush left.
    case left
    /// Numbers: flush right, so digits line up.
    case right
  }

  /// A column's title and alignment.
  public struct Column: Sendable {
    /// The header text.
    public var title: String
    /// The alignment of the header and the cells.
    public var alignment: Alignment

    /// Creates a column.
    ///
    /// - Parameters:
    ///   - title: The header text.
    ///   - alignment: The alignment of the header and the cells.
    public init(_ title: String, alignment: Alignment = .left) {
      self.title = title
      self.alignment = alignment
    }
  }

  /// The columns, left to right.
  public var columns: [Column]
  /// The rows added so far.
  public private(set) var rows: [[String]] = []

  /// Creates an empty table.
  ///
  /// - Parameter columns: The columns, left to right.
  public init(columns: [Column]) {
    self.columns = columns
  }

  /// Adds a row; missing cells are empty, and cells beyond the columns get untitled,
  /// left-aligned columns rather than being dropped.
  ///
  /// - Parameter cells: The cells, left to right.
  public mutating func addRow(_ cells: [String]) {
    rows.append(cells)
  }

  /// The table: a header, a rule of dashes, then the rows, columns two spaces apart and no
  /// trailing spaces, without a final newline.
  ///
  /// - Returns: The rendered table.
  public func rendered() -> String {
    let columnCount = max(columns.count, rows.map(\.count).max() ?? 0)
    let alignments = (0..<columnCount).map { index in
      index < columns.count ? columns[index].alignment : .left
    }
    let header = (0..<columnCount).map { index in index < columns.count ? columns[index].title : ""
    }
    let body = rows.map { row in
      (0..<columnCount).map { index in index < row.count ? row[index] : "" }
    }
    let widths = (0..<columnCount).map { index in
      ([header] + body).map { $0[index].count }.max() ?? 0
    }
    let rule = widths.map { String(repeating: "-", count: $0) }

    func line(_ cells: [String]) -> String {
      let padded = cells.indices.map { index in
        let padding = String(repeating: " ", count: widths[index] - cells[index].count)
        return alignments[index] == .right ? padding + cells[index] : cells[index] + padding
      }
      var text = Substring(padded.joined(separator: "  "))
      while text.last == " " {
        text.removeLast()
      }
      return String(text)
    }
    return ([line(header), line(rule)] + body.map(line)).joined(separator: "\n")
  }
}
