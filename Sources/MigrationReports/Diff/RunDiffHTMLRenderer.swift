/// `receipt-migrate diff --html FILE`: the diff as one self-contained page in the report's
/// style — the same style sheet and the same content security policy, and no script.
public enum RunDiffHTMLRenderer {
  /// The page.
  ///
  /// - Parameter diff: the diff.
  public static func render(_ diff: RunDiff) -> String {
    let e = HTMLText.escape
    var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    // As in report.html: nothing may load from anywhere, and only this page's style may apply.
    html +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      + "style-src '\(HTMLReportRenderer.hash(HTMLAssets.style))'; script-src 'none'; "
      + "img-src 'none'; base-uri 'none'; form-action 'none'\">\n"
    html +=
      "<title>Diff \(e(diff.before.runId)) → \(e(diff.after.runId))</title>\n"
    html += "<style>\(HTMLAssets.style)</style>\n</head>\n<body>\n<main>\n"
    html += "<h1>What changed from run \(e(diff.before.runId)) to \(e(diff.after.runId))</h1>\n"
    html += "<div class=\"scroll\"><table><thead><tr><th></th><th>Source</th><th>Run</th>"
    html += "<th>As of</th><th>Tool version</th><th>Accounts</th></tr></thead><tbody>\n"
    for (name, facts, accounts) in [
      ("Before", diff.before, diff.accountsBefore), ("After", diff.after, diff.accountsAfter),
    ] {
      html +=
        "<tr><th>\(name)</th><td><code>\(e(facts.source))</code></td><td>\(e(facts.runId))</td>"
        + "<td>\(e(facts.asOf))</td><td>\(e(facts.toolVersion))</td><td>\(accounts)</td></tr>\n"
    }
    html += "</tbody></table></div>\n"
    if diff.inputDifferences.isEmpty {
      html += "<p class=\"note\">Both runs were made with the same inputs.</p>\n"
    } else {
      html += "<p class=\"note\">Their inputs differ, so some differences may come from them:</p>"
      html += "\n<ul>\n"
      for sentence in diff.inputDifferences { html += "<li>\(e(sentence))</li>\n" }
      html += "</ul>\n"
    }
    html += "<h2>Moves</h2>\n<div class=\"scroll\"><table><thead><tr><th>Side</th>"
    for kind in ChangeKind.allCases { html += "<th>\(e(kind.title))</th>" }
    html += "</tr></thead><tbody>\n"
    for (name, counts) in [("Primary category", diff.primary), ("Team table", diff.table)] {
      html += "<tr><th>\(name)</th>"
      for kind in ChangeKind.allCases {
        html += "<td>\(counts.map { String($0[kind]) } ?? "not compared")</td>"
      }
      html += "</tr>\n"
    }
    html += "</tbody></table></div>\n"
    html +=
      "<p class=\"note\">\(diff.onlyBefore.count) account(s) only before, "
      + "\(diff.onlyAfter.count) only after.</p>\n"
    html += "<h2>Accounts whose category changed (\(diff.changes.count))</h2>\n"
    html += "<div class=\"scroll\"><table><thead><tr><th>Account</th><th>Primary</th>"
    html += "<th>Team table</th><th>Evidence that changed</th></tr></thead><tbody>\n"
    for change in diff.changes {
      func move(_ move: CategoryChange?) -> String {
        move.map { "\(e($0.kind.title)): <code>\(e($0.arrow))</code>" } ?? ""
      }
      let evidence =
        change.evidenceRemoved.map { "− \(e($0))" } + change.evidenceAdded.map { "+ \(e($0))" }
      html +=
        "<tr><td class=\"id\">\(e(change.accountId))</td><td>\(move(change.primary))</td>"
        + "<td>\(move(change.table))</td><td>\(evidence.joined(separator: "<br>"))</td></tr>\n"
    }
    html += "</tbody></table></div>\n</main>\n</body>\n</html>\n"
    return html
  }
}
