import Entitlements

/// An audit's trend as inline SVG: per run, a column of its accounts by impact (stacked), and
/// beneath a middle line its new findings (up) and resolved ones (down), oldest run first.
///
/// Static, like the page's other charts: a `<title>` per run says its numbers for a screen
/// reader, the table beside the chart holds the same numbers and the links, and the `viewBox`
/// lets the chart shrink to a phone's width.
struct TrendChart {
  /// One run's numbers.
  struct Run: Hashable {
    /// The short label under its column (its as-of date).
    var label: String
    /// Accounts per impact, in ``TrendChart/impacts`` order.
    var impacts: [Int]
    var newFindings: Int
    var resolved: Int
    /// The accessible title: a full sentence.
    var title: String
  }

  /// The impacts stacked, bottom first, with their colours.
  static let impacts: [(impact: DiscrepancyCategory.Impact, tone: String)] = [
    (.losesAccess, "lose"), (.gainsAccess, "gain"), (.changesTerms, "term"),
    (.needsAttention, "attn"),
  ]

  // Narrow enough that a phone shows the labels at their size: the chart is never scaled up.
  static let width: Double = 320
  static let top: Double = 24
  static let impactHeight: Double = 140
  static let gap: Double = 20
  /// Half the height of the new/resolved panel: new above its middle line, resolved below.
  static let changeHalf: Double = 36
  static let labelHeight: Double = 28
  static let height: Double = top + impactHeight + gap + 2 * changeHalf + labelHeight
  static let sideMargin: Double = 8
  static let fill: Double = 0.7
  /// At most this many labels under the columns, so that thirty runs stay readable.
  static let maximumLabels = 6

  var runs: [Run]

  /// The chart as an `<svg>` element.
  ///
  /// - Parameters:
  ///   - id: the element id; also prefixes the title's id.
  ///   - title: the chart's accessible title.
  /// - Returns: the markup.
  func svg(id: String, title: String) -> String {
    let n = SVGNumber.format
    let slot = runs.isEmpty ? 0 : (Self.width - 2 * Self.sideMargin) / Double(runs.count)
    let barWidth = slot * Self.fill
    let impactBase = Self.top + Self.impactHeight
    let changeMiddle = impactBase + Self.gap + Self.changeHalf
    let impactMaximum = max(1, runs.map { $0.impacts.reduce(0, +) }.max() ?? 0)
    let changeMaximum = max(1, runs.map { max($0.newFindings, $0.resolved) }.max() ?? 0)
    let labelEvery = max(1, (runs.count + Self.maximumLabels - 1) / Self.maximumLabels)
    var svg =
      "<svg id=\"\(id)\" class=\"chart trend\" role=\"img\" aria-labelledby=\"\(id)-title\" "
      + "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(Self.width)) \(n(Self.height))\" "
      + "width=\"\(n(Self.width))\" height=\"\(n(Self.height))\">\n"
    svg += "<title id=\"\(id)-title\">\(HTMLText.escape(title))</title>\n"
    for y in [impactBase, changeMiddle] {
      svg +=
        "<line class=\"axis\" x1=\"0\" y1=\"\(n(y))\" x2=\"\(n(Self.width))\" y2=\"\(n(y))\"/>\n"
    }
    svg +=
      "<text class=\"label\" x=\"\(n(Self.sideMargin))\" y=\"\(n(Self.top - 10))\">accounts by "
      + "impact</text>\n"
    svg +=
      "<text class=\"label\" x=\"\(n(Self.sideMargin))\" y=\"\(n(changeMiddle - Self.changeHalf - 4))\">"
      + "new ↑ · resolved ↓</text>\n"
    for (index, run) in runs.enumerated() {
      let x = Self.sideMargin + Double(index) * slot + (slot - barWidth) / 2
      svg += "<g class=\"column\"><title>\(HTMLText.escape(run.title))</title>"
      var y = impactBase
      for (position, tone) in Self.impacts.map(\.tone).enumerated() {
        let value = position < run.impacts.count ? run.impacts[position] : 0
        guard value > 0 else { continue }
        let height = Double(value) / Double(impactMaximum) * Self.impactHeight
        y -= height
        svg +=
          "<rect class=\"bar tone-\(tone)\" x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(barWidth))\" "
          + "height=\"\(n(height))\"/>"
      }
      if run.newFindings > 0 {
        let height = Double(run.newFindings) / Double(changeMaximum) * Self.changeHalf
        svg +=
          "<rect class=\"bar tone-lose\" x=\"\(n(x))\" y=\"\(n(changeMiddle - height))\" "
          + "width=\"\(n(barWidth))\" height=\"\(n(height))\"/>"
      }
      if run.resolved > 0 {
        let height = Double(run.resolved) / Double(changeMaximum) * Self.changeHalf
        svg +=
          "<rect class=\"bar tone-gain\" x=\"\(n(x))\" y=\"\(n(changeMiddle))\" "
          + "width=\"\(n(barWidth))\" height=\"\(n(height))\"/>"
      }
      // The last run (this one) is always labelled; the others every few columns.
      if index == runs.count - 1
        || (index % labelEvery == 0 && runs.count - 1 - index >= labelEvery)
      {
        svg +=
          "<text class=\"label\" x=\"\(n(x + barWidth / 2))\" y=\"\(n(Self.height - 8))\" "
          + "text-anchor=\"middle\">\(HTMLText.escape(run.label))</text>"
      }
      svg += "</g>\n"
    }
    return svg + "</svg>"
  }
}
