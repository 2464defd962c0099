import Chronology
import LegacyReceipts
import Testing

@testable import MigrationReports

@Suite("Chart geometry")
struct ChartGeometryTests {
  private func row(_ value: Int) -> HorizontalBarChart.Row {
    HorizontalBarChart.Row(
      label: "r\(value)", value: value, valueText: "\(value)", tone: "lose", title: "t")
  }

  @Test("bar lengths are proportional to the values, the largest filling the bar area")
  func barsProportional() throws {
    let values = [40, 10, 0, 25, 1]
    let bars = HorizontalBarChart(rows: values.map(row)).bars
    #expect(bars.count == values.count)
    let longest = try #require(bars.first)
    #expect(longest.width == HorizontalBarChart.barAreaWidth)
    for (bar, value) in zip(bars, values) {
      #expect(abs(bar.width / longest.width - Double(value) / 40) < 1e-9)
      #expect(bar.x == HorizontalBarChart.labelWidth)
    }
    // Rows are stacked without overlapping, in the given order.
    for (upper, lower) in zip(bars, bars.dropFirst()) {
      #expect(upper.y + upper.height <= lower.y)
    }
  }

  @Test("a chart of zeros draws no bars, and divides by nothing")
  func allZero() {
    let bars = HorizontalBarChart(rows: [row(0), row(0)]).bars
    #expect(bars.map(\.width) == [0, 0])
  }

  @Test("the SVG carries one rect and one title per bar, with the computed widths")
  func barSVG() {
    let chart = HorizontalBarChart(rows: [row(30), row(15)])
    let svg = chart.svg(id: "c", title: "Accounts <by> category")
    #expect(svg.components(separatedBy: "<rect class=\"bar").count - 1 == 2)
    #expect(svg.components(separatedBy: "<title>").count - 1 == 2)
    #expect(svg.contains("width=\"400\" height=\"18\""))
    #expect(svg.contains("width=\"200\" height=\"18\""))
    #expect(svg.contains("Accounts &lt;by&gt; category"))
  }

  @Test("column heights are proportional and stand on one baseline")
  func columnsProportional() throws {
    let values = [2, 8, 0, 4]
    let chart = ColumnChart(
      columns: values.map {
        ColumnChart.Column(label: "\($0)", value: $0, tone: "same", title: "t")
      })
    let bars = chart.bars
    let baseline = ColumnChart.plotTop + ColumnChart.plotHeight
    for (bar, value) in zip(bars, values) {
      #expect(abs(bar.height - Double(value) / 8 * ColumnChart.plotHeight) < 1e-9)
      #expect(abs(bar.y + bar.height - baseline) < 1e-9)
    }
    for (left, right) in zip(bars, bars.dropFirst()) {
      #expect(left.x + left.width < right.x)
    }
    let last = try #require(bars.last)
    #expect(last.x + last.width <= ColumnChart.width)
  }

  private static let day = Timestamp.millisecondsPerDay

  @Test(
    "expiry differences fall in the documented buckets, boundaries included",
    arguments: [
      (-30 * day - 1, ExpiryDifferenceHistogram.Bucket.atMostMinus30),
      (-30 * day, .atMostMinus30),
      (-30 * day + 1, .minus30ToMinus7),
      (-7 * day, .minus30ToMinus7),
      (-7 * day + 1, .minus7ToMinus1),
      (-day - 1, .minus7ToMinus1),
      (-day, .withinOneDay),
      (0, .withinOneDay),
      (day, .withinOneDay),
      (day + 1, .plus1ToPlus7),
      (7 * day - 1, .plus1ToPlus7),
      (7 * day, .plus7ToPlus30),
      (30 * day - 1, .plus7ToPlus30),
      (30 * day, .atLeastPlus30),
      (400 * day, .atLeastPlus30),
    ])
  func buckets(difference: Int64, bucket: ExpiryDifferenceHistogram.Bucket) {
    #expect(ExpiryDifferenceHistogram.Bucket(differenceMilliseconds: difference) == bucket)
  }

  @Test("the histogram counts new minus old, not old minus new")
  func histogramDirection() {
    var histogram = ExpiryDifferenceHistogram()
    let old = Timestamp(millisecondsSince1970: 100 * Self.day)
    histogram.add(old: old, new: old.adding(milliseconds: 10 * Self.day))
    histogram.add(old: old, new: old.adding(milliseconds: -40 * Self.day))
    histogram.add(old: old, new: old)
    #expect(histogram.count(.plus7ToPlus30) == 1)
    #expect(histogram.count(.atMostMinus30) == 1)
    #expect(histogram.count(.withinOneDay) == 1)
    #expect(histogram.total == 3)
  }

  @Test(
    "transitions are classified by what they do to access",
    arguments: [
      (
        EntitlementStatus?.some(.active), EntitlementStatus?.some(.active),
        StatusTransitions.Kind.same
      ),
      (.active, .revoked, .losesAccess),
      (.gracePeriod, nil, .losesAccess),
      (nil, .active, .gainsAccess),
      (.expired, .gracePeriod, .gainsAccess),
      (.active, .gracePeriod, .relabelled),
      (.expired, .billingRetry, .relabelled),
      (nil, nil, .same),
    ])
  func transitionKinds(
    old: EntitlementStatus?, new: EntitlementStatus?, kind: StatusTransitions.Kind
  ) {
    #expect(StatusTransitions.kind(old: old, new: new) == kind)
  }

  @Test("the sample world's transition matrix counts every key once")
  func sampleMatrix() {
    let statistics = ReportStatistics(comparisons: SampleWorld.comparisons, topExplanationCount: 0)
    let keys = SampleWorld.comparisons.reduce(0) { $0 + $1.keys.count }
    #expect(statistics.transitions.total == keys)
    #expect(statistics.keys == keys)
    // acct-1009, acct-1010 and the formula account: absent from the receipt, active in the API.
    #expect(statistics.transitions.count(old: nil, new: .active) == 3)
    #expect(statistics.transitions.count(old: .active, new: .revoked) == 4)
    #expect(statistics.transitions.count(old: .expired, new: .gracePeriod) == 1)
    let withBothExpiries = SampleWorld.comparisons.flatMap(\.keys).filter {
      $0.old?.expiresDate != nil && $0.new?.expiresDate != nil
    }
    #expect(statistics.expiryDifferences.total == withBothExpiries.count)
    // acct-1006 expires exactly 30 days earlier at the App Store, the unicode account 40 days.
    #expect(statistics.expiryDifferences.count(.atMostMinus30) == 2)
  }
}
