/// A horizontal bar chart as inline SVG: one labelled bar per row, lengths proportional to the
/// values, the count and share written after each bar, and a `<title>` per bar for screen
/// readers and hover.
struct HorizontalBarChart {
  /// One bar's data.
  struct Row: Hashable {
    /// The label left of the bar.
    var label: String
    /// The value the bar's length shows.
    var value: Int
    /// The text right of the bar: `12 · 4.0%`.
    var valueText: String
    /// The CSS class suffix of the bar's colour.
    var tone: String
    /// The accessible title: a full sentence.
    var title: String
    /// Where a click on the row goes (a fragment that filters the account table), if anywhere.
    var link: String? = nil
  }

  /// One bar's geometry, in the chart's coordinates.
  struct Bar: Hashable {
    var row: Row
    var x: Double
    var y: Double
    var width: Double
    var height: Double
  }

  static let width: Double = 760
  static let labelWidth: Double = 250
  static let barAreaWidth: Double = 400
  static let rowHeight: Double = 28
  static let barHeight: Double = 18
  static let padding: Double = 6

  var rows: [Row]

  /// The chart's height.
  var height: Double { Double(rows.count) * Self.rowHeight + 2 * Self.padding }

  /// The bars: each `value / maximum` of the bar area long, so lengths compare as values do.
  var bars: [Bar] {
    let maximum = rows.map(\.value).max() ?? 0
    return rows.enumerated().map { index, row in
      let fraction = maximum > 0 ? Double(max(0, row.value)) / Double(maximum) : 0
      return Bar(
        row: row, x: Self.labelWidth,
        y: Self.padding + Double(index) * Self.rowHeight + (Self.rowHeight - Self.barHeight) / 2,
        width: fraction * Self.barAreaWidth, height: Self.barHeight)
    }
  }

  /// The chart as an `<svg>` element.
  ///
  /// - Parameters:
  ///   - id: the element id; also prefixes the title's id.
  ///   - title: the chart's accessible title.
  func svg(id: String, title: String) -> String {
    let n = SVGNumber.format
    var svg =
      "<svg id=\"\(id)\" class=\"chart bars\" role=\"img\" aria-labelledby=\"\(id)-title\" "
      + "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(Self.width)) \(n(height))\" "
      + "width=\"\(n(Self.width))\" height=\"\(n(height))\">\n"
    svg += "<title id=\"\(id)-title\">\(HTMLText.escape(title))</title>\n"
    svg +=
      "<line class=\"axis\" x1=\"\(n(Self.labelWidth))\" y1=\"0\" x2=\"\(n(Self.labelWidth))\" "
      + "y2=\"\(n(height))\"/>\n"
    for bar in bars {
      let middle = bar.y + bar.height / 2
      if let link = bar.row.link { svg += "<a href=\"\(HTMLText.escape(link))\">" }
      svg += "<g class=\"row\"><title>\(HTMLText.escape(bar.row.title))</title>"
      svg +=
        "<text class=\"label\" x=\"\(n(Self.labelWidth - 10))\" y=\"\(n(middle))\" "
        + "text-anchor=\"end\" dominant-baseline=\"central\">\(HTMLText.escape(bar.row.label))</text>"
      svg +=
        "<rect class=\"bar tone-\(bar.row.tone)\" x=\"\(n(bar.x))\" y=\"\(n(bar.y))\" "
        + "width=\"\(n(bar.width))\" height=\"\(n(bar.height))\" rx=\"2\"/>"
      svg +=
        "<text class=\"value\" x=\"\(n(bar.x + bar.width + 6))\" y=\"\(n(middle))\" "
        + "dominant-baseline=\"central\">\(HTMLText.escape(bar.row.valueText))</text></g>"
      svg += bar.row.link == nil ? "\n" : "</a>\n"
    }
    svg += "</svg>"
    return svg
  }
}
