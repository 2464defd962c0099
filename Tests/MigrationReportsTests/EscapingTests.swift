import CryptoSupport
import Entitlements
import Foundation
import Testing

@testable import MigrationReports

@Suite("Escaping")
struct EscapingTests {
  private static let html = ReportWriter.render(
    summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons)[0].text

  @Test(
    "HTML escaping turns markup into text",
    arguments: [
      ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
      ("a & b", "a &amp; b"),
      ("\" onmouseover=\"x", "&quot; onmouseover=&quot;x"),
      ("it's", "it&#39;s"),
      ("nul\u{0}bell\u{7}", "nul\u{FFFD}bell\u{FFFD}"),
      ("Zoë-東京-🙂", "Zoë-東京-🙂"),
    ])
  func htmlEscape(text: String, escaped: String) {
    #expect(HTMLText.escape(text) == escaped)
  }

  @Test("a <script> or an <img onerror> in an account id is text, not markup")
  func hostileIdsInHTML() {
    let html = Self.html
    #expect(!html.contains(SampleWorld.scriptId))
    #expect(!html.contains(SampleWorld.imageId))
    #expect(html.contains(HTMLText.escape(SampleWorld.scriptId)))
    #expect(html.contains(HTMLText.escape(SampleWorld.imageId)))
    // Exactly one script element: the page's own.
    #expect(html.components(separatedBy: "<script").count - 1 == 1)
    #expect(!html.contains("<b>after</b>"))
    #expect(!html.contains("\u{1B}"))
  }

  @Test("the page loads nothing and runs only its own script and style, by hash")
  func contentSecurityPolicy() throws {
    let html = Self.html
    #expect(html.contains("default-src 'none'"))
    let scriptHash =
      "sha256-" + Data(SHA256.hash(Array(HTMLAssets.script.utf8))).base64EncodedString()
    let styleHash =
      "sha256-" + Data(SHA256.hash(Array(HTMLAssets.style.utf8))).base64EncodedString()
    #expect(html.contains("script-src '\(scriptHash)'"))
    #expect(html.contains("style-src '\(styleHash)'"))
    #expect(html.contains("<script>\(HTMLAssets.script)</script>"))
    #expect(html.contains("<style>\(HTMLAssets.style)</style>"))
    // Self-contained: no reference to anything outside the file.
    for reference in ["src=\"http", "href=\"http", "url(", "@import", "<link", "<iframe"] {
      #expect(!html.contains(reference), "report.html refers outside itself: \(reference)")
    }
    #expect(!html.contains("style=\""), "inline style attributes would need 'unsafe-inline'")
  }

  @Test(
    "Markdown escaping leaves no inline syntax or HTML live",
    arguments: [
      ("*bold* _em_ `code`", "\\*bold\\* \\_em\\_ \\`code\\`"),
      ("[link](http://x)", "\\[link\\](http://x)"),
      ("a | b", "a \\| b"),
      ("<img src=x>", "&lt;img src=x&gt;"),
      ("auto_renew_status", "auto_renew_status"),
      ("two\nlines", "two lines"),
      ("2024-06-02 (REFUND_FULL).", "2024-06-02 (REFUND_FULL)."),
    ])
  func markdownEscape(text: String, escaped: String) {
    #expect(MarkdownText.escape(text) == escaped)
  }

  @Test("summary.md quotes hostile explanations as text")
  func hostileMarkdown() {
    let summary =
      ReportWriter.render(
        summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
        options: ReportOptions(topExplanationCount: 100)
      ).first { $0.name == "summary.md" }?.text ?? ""
    #expect(!summary.contains("<b>"))
    #expect(summary.contains("&lt;b&gt;after&lt;/b&gt;"))
    #expect(summary.contains("\\*not\\* a \\[link\\](x) \\| pipe"))
  }

  @Test(
    "terminal text shows control characters instead of sending them",
    arguments: [
      ("\u{1B}[2Jwiped", "\\u{1B}[2Jwiped"),
      ("line\nbreak", "line\\u{A}break"),
      ("c1\u{9B}31m", "c1\\u{9B}31m"),
      ("plain Zoë", "plain Zoë"),
    ])
  func terminalSafe(text: String, safe: String) {
    #expect(TerminalText.safe(text) == safe)
  }

  @Test("explain never writes an escape sequence or a line break from the data")
  func explainHostile() throws {
    for id in [SampleWorld.escapeId, SampleWorld.formulaId] {
      let comparison = try #require(SampleWorld.comparisons.first { $0.accountId == id })
      let text = ExplainRenderer.render(comparison, asOf: SampleWorld.asOf)
      #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
      let heading = try #require(text.split(separator: "\n").first)
      #expect(heading == "Account " + TerminalText.safe(id))
    }
  }
}
