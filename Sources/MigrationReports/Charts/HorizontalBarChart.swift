/// A horizontal bar chart as inline SVG: one labelled bar per row, lengths proportional to the
/// values, the count and share written after each bar, and a `<title>` per bar for screen
/// readers and hover.
///
/// Two layouts: ``Layout/wide`` puts each label left of its bar, for screens from a tablet up;
/// ``Layout/narrow`` puts it above its bar in a chart 320 units wide, so that on a phone, where
/// the chart is drawn at about its own size, the labels keep their full size instead of being
/// scaled down with a wide chart. report.html carries both and shows one by the window's width.
struct HorizontalBarChart {
  /// One bar's data.
  struct Row: Hashable {
    /// The label left of (or above) the bar.
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

  /// Where labels and bars go.
  struct Layout: Hashable {
    /// The chart's width.
    var width: Double
    /// Where bars start; labels end 10 units before (wide) or start at 0 above them (narrow).
    var barStart: Double
    /// The longest bar's length.
    var barAreaWidth: Double
    /// One row's height.
    var rowHeight: Double
    /// A bar's height.
    var barHeight: Double
    /// Above the first row and below the last.
    var padding: Double
    /// Whether each label stands above its bar rather than left of it.
    var labelsAbove: Bool
    /// The name of the layout, a class of the `<svg>` that the page's style sheet shows or
    /// hides by the window's width.
    var name: String

    /// Labels left of the bars, 760 units wide.
    static let wide = Layout(
      width: 760, barStart: 250, barAreaWidth: 400, rowHeight: 28, barHeight: 18, padding: 6,
      labelsAbove: false, name: "wide")
    /// Labels above the bars, 320 units wide: a phone's column.
    static let narrow = Layout(
      width: 320, barStart: 0, barAreaWidth: 220, rowHeight: 40, barHeight: 14, padding: 4,
      labelsAbove: true, name: "narrow")
  }

  static let width = Layout.wide.width
  static let labelWidth = Layout.wide.barStart
  static let barAreaWidth = Layout.wide.barAreaWidth
  static let rowHeight = Layout.wide.rowHeight
  static let barHeight = Layout.wide.barHeight
  static let padding = Layout.wide.padding

  var rows: [Row]
  var layout: Layout = .wide

  /// The chart's height.
  var height: Double { Double(rows.count) * layout.rowHeight + 2 * layout.padding }

  /// The bars: each `value / maximum` of the bar area long, so lengths compare as values do.
  var bars: [Bar] {
    let maximum = rows.map(\.value).max() ?? 0
    return rows.enumerated().map { index, row in
      let fraction = maximum > 0 ? Double(max(0, row.value)) / Double(maximum) : 0
      let top = layout.padding + Double(index) * layout.rowHeight
      // Wide: the bar in the middle of its row. Narrow: at the bottom, under its label.
      let y =
        layout.labelsAbove
        ? top + layout.rowHeight - layout.barHeight - 4
        : top + (layout.rowHeight - layout.barHeight) / 2
      return Bar(
        row: row, x: layout.barStart, y: y, width: fraction * layout.barAreaWidth,
        height: layout.barHeight)
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
      "<svg id=\"\(id)\" class=\"chart bars \(layout.name)\" role=\"img\" "
      + "aria-labelledby=\"\(id)-title\" xmlns=\"http://www.w3.org/2000/svg\" "
      + "viewBox=\"0 0 \(n(layout.width)) \(n(height))\" "
      + "width=\"\(n(layout.width))\" height=\"\(n(height))\">\n"
    svg += "<title id=\"\(id)-title\">\(HTMLText.escape(title))</title>\n"
    if !layout.labelsAbove {
      svg +=
        "<line class=\"axis\" x1=\"\(n(layout.barStart))\" y1=\"0\" x2=\"\(n(layout.barStart))\" "
        + "y2=\"\(n(height))\"/>\n"
    }
    for bar in bars {
      let middle = bar.y + bar.height / 2
      if let link = bar.row.link { svg += "<a href=\"\(HTMLText.escape(link))\">" }
      svg += "<g class=\"row\"><title>\(HTMLText.escape(bar.row.title))</title>"
      if layout.labelsAbove {
        svg +=
          "<text class=\"label\" x=\"0\" y=\"\(n(bar.y - 5))\">"
          + "\(HTMLText.escape(bar.row.label))</text>"
      } else {
        svg +=
          "<text class=\"label\" x=\"\(n(layout.barStart - 10))\" y=\"\(n(middle))\" "
          + "text-anchor=\"end\" dominant-baseline=\"central\">\(HTMLText.escape(bar.row.label))</text>"
      }
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

  /// The chart in both layouts, one after the other: the wide one with `id`, the narrow one
  /// with `id` and `-narrow`. The page's style sheet shows one of them.
  ///
  /// - Parameters:
  ///   - id: the wide chart's element id.
  ///   - title: the chart's accessible title.
  func bothLayouts(id: String, title: String) -> String {
    var wide = self
    wide.layout = .wide
    var narrow = self
    narrow.layout = .narrow
    return wide.svg(id: id, title: title) + "\n" + narrow.svg(id: id + "-narrow", title: title)
  }
}
