/// A vertical column chart as inline SVG, for histograms: columns side by side, heights
/// proportional to the values, the count above each column, the label below, and a `<title>`
/// per column.
struct ColumnChart {
  /// One column's data.
  struct Column: Hashable {
    var label: String
    var value: Int
    /// The CSS class suffix of the column's colour.
    var tone: String
    /// The accessible title: a full sentence.
    var title: String
  }

  /// One column's geometry, in the chart's coordinates.
  struct Bar: Hashable {
    var column: Column
    var x: Double
    var y: Double
    var width: Double
    var height: Double
  }

  static let width: Double = 560
  static let plotTop: Double = 24
  static let plotHeight: Double = 160
  static let labelHeight: Double = 36
  static let height: Double = plotTop + plotHeight + labelHeight
  static let sideMargin: Double = 8
  /// The share of each column's slot the column fills.
  static let fill: Double = 0.72

  var columns: [Column]

  /// The columns' rectangles: each `value / maximum` of the plot's height, standing on its
  /// baseline.
  var bars: [Bar] {
    let maximum = columns.map(\.value).max() ?? 0
    let slot = columns.isEmpty ? 0 : (Self.width - 2 * Self.sideMargin) / Double(columns.count)
    let baseline = Self.plotTop + Self.plotHeight
    return columns.enumerated().map { index, column in
      let fraction = maximum > 0 ? Double(max(0, column.value)) / Double(maximum) : 0
      let height = fraction * Self.plotHeight
      return Bar(
        column: column,
        x: Self.sideMargin + Double(index) * slot + slot * (1 - Self.fill) / 2,
        y: baseline - height, width: slot * Self.fill, height: height)
    }
  }

  /// The chart as an `<svg>` element.
  ///
  /// - Parameters:
  ///   - id: the element id; also prefixes the title's id.
  ///   - title: the chart's accessible title.
  func svg(id: String, title: String) -> String {
    let n = SVGNumber.format
    let baseline = Self.plotTop + Self.plotHeight
    var svg =
      "<svg id=\"\(id)\" class=\"chart columns wide\" role=\"img\" aria-labelledby=\"\(id)-title\" "
      + "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(Self.width)) \(n(Self.height))\" "
      + "width=\"\(n(Self.width))\" height=\"\(n(Self.height))\">\n"
    svg += "<title id=\"\(id)-title\">\(HTMLText.escape(title))</title>\n"
    svg +=
      "<line class=\"axis\" x1=\"0\" y1=\"\(n(baseline))\" x2=\"\(n(Self.width))\" "
      + "y2=\"\(n(baseline))\"/>\n"
    for bar in bars {
      let center = bar.x + bar.width / 2
      svg += "<g class=\"column\"><title>\(HTMLText.escape(bar.column.title))</title>"
      svg +=
        "<rect class=\"bar tone-\(bar.column.tone)\" x=\"\(n(bar.x))\" y=\"\(n(bar.y))\" "
        + "width=\"\(n(bar.width))\" height=\"\(n(bar.height))\" rx=\"2\"/>"
      svg +=
        "<text class=\"value\" x=\"\(n(center))\" y=\"\(n(bar.y - 6))\" "
        + "text-anchor=\"middle\">\(ReportFormatting.count(bar.column.value))</text>"
      svg +=
        "<text class=\"label\" x=\"\(n(center))\" y=\"\(n(baseline + 20))\" "
        + "text-anchor=\"middle\">\(HTMLText.escape(bar.column.label))</text></g>\n"
    }
    svg += "</svg>"
    return svg
  }
}
