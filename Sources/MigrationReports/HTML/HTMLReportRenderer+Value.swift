import Entitlements

// MARK: - What the differences are worth, and where they fall: money at stake, by product

extension HTMLReportRenderer {
  /// The products listed on the page; run.json holds them all.
  static let productRowLimit = 50

  /// "Money at stake" (per impact and currency) and "By product" (accounts, keys, categories).
  func valueSections() -> String {
    var html = ""
    let money = statistics.money
    if !money.currencies.isEmpty {
      html += "<section id=\"money\">\n<h2>Money at stake</h2>\n"
      let unpriced =
        money.unpricedKeys > 0
        ? "; \(ReportFormatting.count(money.unpricedKeys)) differing key(s) carry no price" : ""
      html += "<p class=\"note\">From the App Store's deciding transactions, per currency, never "
      html += "converted: recurring revenue normalised to a month (price × 30.4375 days ÷ the "
      html += "transaction's own period), one-time purchases at their price\(unpriced).</p>\n"
      html += "<div class=\"scroll\"><table id=\"money-table\"><thead><tr><th>Impact</th>"
      html += "<th>Currency</th><th class=\"num\">Recurring per month</th>"
      html += "<th class=\"num\">One-time</th></tr></thead><tbody>\n"
      for impact in DiscrepancyCategory.Impact.allCases where impact != .none {
        for (currency, amounts) in (money.byImpact[impact] ?? [:]).sorted(by: { $0.key < $1.key }) {
          html += "<tr><td>\(e(ReportFormatting.impact(impact)))</td><td>\(e(currency))</td>"
          html += "<td class=\"num\">\(MoneyAtStake.text(amounts.recurringMonthly))</td>"
          html += "<td class=\"num\">\(MoneyAtStake.text(amounts.oneTime))</td></tr>\n"
        }
      }
      html += "</tbody></table></div>\n</section>\n"
    }
    if !statistics.products.isEmpty {
      html += "<section id=\"products\">\n<h2>By product</h2>\n"
      html += "<div class=\"scroll\"><table id=\"products-table\"><thead><tr><th>Product</th>"
      html += "<th>Group</th><th class=\"num\">Accounts</th><th class=\"num\">Keys</th>"
      html += "<th class=\"num\">Differ</th><th>At stake</th><th>Categories</th></tr></thead>"
      html += "<tbody>\n"
      for product in statistics.products.prefix(Self.productRowLimit) {
        let categories = DisplayOrder.categories.compactMap { category -> String? in
          guard category != .match, let count = product.byCategory[category] else { return nil }
          return "<code>\(e(category.rawValue))</code> \(ReportFormatting.count(count))"
        }
        let group = product.group.isEmpty ? "—" : "<code>\(e(product.group))</code>"
        html += "<tr><td><code>\(e(product.productId))</code></td><td>\(group)</td>"
        html += "<td class=\"num\">\(ReportFormatting.count(product.accounts))</td>"
        html += "<td class=\"num\">\(ReportFormatting.count(product.keys))</td>"
        html += "<td class=\"num\">\(ReportFormatting.count(product.differing))</td>"
        html += "<td>\(e(MoneyAtStake.summary(product.atStake)))</td>"
        html += "<td>\(categories.joined(separator: ", "))</td></tr>\n"
      }
      html += "</tbody></table></div>\n"
      if statistics.products.count > Self.productRowLimit {
        html +=
          "<p class=\"note\">\(statistics.products.count - Self.productRowLimit) more in "
          + "<code>run.json</code>.</p>\n"
      }
      html += "</section>\n"
    }
    return html
  }
}
