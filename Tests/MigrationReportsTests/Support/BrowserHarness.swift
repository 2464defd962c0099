import Foundation
import TestDirectories

/// Drives report.html in headless Chromium the way a reader does — at a window width, clicking
/// its links, typing in its search box, pressing keys — and reports what the page then shows.
///
/// The report's Content Security Policy lets no script but its own run in it, so the driver is
/// a second page beside it (`harness.html`, written by the test) that opens the report in an
/// `<iframe>` of the width asked for, acts on its document and writes what it measured into
/// its own DOM, which Chromium prints (`--dump-dom`). Chromium must be told to let one local
/// file read another's document (`--allow-file-access-from-files`); nothing else is changed.
/// The measurements are the browser's own: layout boxes, computed styles, the focused element.
enum BrowserHarness {
  /// One thing the driver does, then measures.
  enum Step {
    /// Measures the layout: page width against the window, font sizes, chart labels.
    case layout
    /// Measures the page's state without doing anything.
    case state
    /// Clicks the `index`th element matching a CSS selector (a mouse click event, so links in
    /// SVG work as in HTML).
    case click(String, index: Int = 0)
    /// Types text into the search box (replacing what it held).
    case type(String)
    /// Presses a key on the element a selector names (after focusing it).
    case key(String, on: String)
    /// Lists the page's interactive elements and whether the keyboard reaches them.
    case focusables
    /// Opens the report afresh with a fragment (a new load, as a reader opening a link), then
    /// measures its state.
    case open(String)

    var json: [String: Any] {
      switch self {
      case .layout: return ["do": "layout"]
      case .state: return ["do": "state"]
      case .click(let selector, let index):
        return ["do": "click", "selector": selector, "index": index]
      case .type(let text): return ["do": "type", "text": text]
      case .key(let key, let selector): return ["do": "key", "key": key, "selector": selector]
      case .focusables: return ["do": "focusables"]
      case .open(let fragment): return ["do": "open", "fragment": fragment]
      }
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Opens `directory/report.html` (with `fragment`) at `width` CSS pixels and carries out the
  /// steps.
  ///
  /// - Returns: one dictionary of measurements per step.
  static func run(
    reportIn directory: String, fragment: String = "", width: Int, height: Int = 800,
    steps: [Step]
  ) async throws -> [[String: Any]] {
    let plan = try JSONSerialization.data(withJSONObject: steps.map(\.json))
    let page = harnessPage(
      source: "report.html" + (fragment.isEmpty ? "" : "#" + fragment), width: width,
      height: height, plan: String(decoding: plan, as: UTF8.self))
    let path = directory + "/harness.html"
    try Data(page.utf8).write(to: URL(fileURLWithPath: path))
    // Virtual time: it stands still while the browser loads, so several loads fit.
    let dom = try await Chromium.dumpDOM(
      of: URL(fileURLWithPath: path), width: max(1400, width + 100), allowFileAccess: true,
      virtualTimeBudget: 5_000 * (1 + steps.count { if case .open = $0 { true } else { false } }))
    guard let start = dom.range(of: "<pre id=\"result\">"),
      let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
    else { throw Failure(description: "the harness wrote no result: \(dom.prefix(400))") }
    // The browser escapes &, < and > in text; the JSON has them as \u escapes already.
    let text = String(dom[start.upperBound..<end.lowerBound])
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw Failure(description: "the harness result is not an object: \(text.prefix(400))") }
    if let error = object["error"] as? String {
      throw Failure(description: "the harness failed: \(error)")
    }
    guard let results = object["steps"] as? [[String: Any]], results.count == steps.count else {
      throw Failure(description: "the harness measured \(object) for \(steps.count) steps")
    }
    return results
  }

  /// Saves a screenshot of `directory/report.html` (with `fragment`) as a window of `width` ×
  /// `height` shows it, after its script ran: scrolled, when the fragment is a filter, to the
  /// list it filters. (Chromium's own screenshot of a page its script scrolled comes out blank,
  /// so the report is framed in a page of the window's size, as ``run(reportIn:fragment:width:height:steps:)``
  /// does.)
  static func screenshot(
    reportIn directory: String, fragment: String = "", width: Int, height: Int, to path: String
  ) async throws {
    let frame = directory + "/frame.html"
    let page =
      "<!DOCTYPE html><html><body style=\"margin:0\"><iframe src=\"report.html"
      + (fragment.isEmpty ? "" : "#" + fragment)
      + "\" style=\"width:\(width)px;height:\(height)px;border:0;display:block\"></iframe></body></html>"
    try Data(page.utf8).write(to: URL(fileURLWithPath: frame))
    try await Chromium.screenshot(
      of: URL(fileURLWithPath: frame), to: path, width: width, height: height,
      allowFileAccess: true)
  }

  private static func harnessPage(source: String, width: Int, height: Int, plan: String) -> String {
    """
    <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
    <pre id="result">pending</pre>
    <iframe id="frame" src="\(source)" style="width:\(width)px;height:\(height)px;border:0"></iframe>
    <script>
    var plan = \(plan);
    var frame = document.getElementById("frame");
    function describe(element) {
      if (!element) { return ""; }
      return element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
        + (element.getAttribute("class") ? "." + element.getAttribute("class").split(" ").join(".") : "");
    }
    function visible(element) { return element.getClientRects().length > 0; }
    function state(win, doc) {
      var rows = doc.querySelectorAll("#accounts > tbody");
      var shown = 0;
      for (var i = 0; i < rows.length; i++) { if (!rows[i].hidden) { shown++; } }
      var active = doc.activeElement;
      var box = active ? active.getBoundingClientRect() : null;
      var list = doc.getElementById("discrepancies");
      var select = doc.getElementById("filter-category");
      var search = doc.getElementById("filter-account");
      var status = doc.getElementById("filter-count");
      return {
        hash: decodeURIComponent(win.location.hash),
        select: select ? select.value : null,
        selectLabel: select && select.selectedIndex >= 0 ? select.options[select.selectedIndex].textContent : null,
        search: search ? search.value : null,
        rows: rows.length,
        visible: shown,
        visibleIds: Array.prototype.filter.call(rows, function (r) { return !r.hidden; }).slice(0, 40)
          .map(function (r) { return r.rows[0].cells[0].textContent; }),
        status: status ? status.textContent : null,
        listTop: list ? Math.round(list.getBoundingClientRect().top) : null,
        scrollY: Math.round(win.scrollY),
        viewport: win.innerHeight,
        active: describe(active),
        activeText: active ? (active.textContent || "").slice(0, 80) : "",
        activeInList: !!(active && list && list.contains(active)),
        activeOnScreen: !!(box && box.bottom > 0 && box.top < win.innerHeight),
        revealed: doc.body.getAttribute("data-revealed"),
        error: doc.body.getAttribute("data-error")
      };
    }
    function layout(win, doc) {
      // Every evidence opened, so that what it holds is laid out and measured too.
      doc.querySelectorAll("#accounts details").forEach(function (d) { d.open = true; });
      var small = [];
      var smallest = 1000;
      var walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        var node = walker.currentNode;
        var element = node.parentElement;
        if (node.textContent.trim() === "" || !element || !visible(element)) { continue; }
        if (element.closest("svg, th, .pill, .tag, .eyebrow, script, style, pre#result")) { continue; }
        var size = parseFloat(win.getComputedStyle(element).fontSize);
        if (size < smallest) { smallest = size; }
        if (size < 14 && small.length < 12) { small.push(describe(element) + " " + size + "px: " + node.textContent.trim().slice(0, 40)); }
      }
      var labels = [];
      doc.querySelectorAll("svg.chart text").forEach(function (text) {
        if (!visible(text)) { return; }
        labels.push(parseFloat(win.getComputedStyle(text).fontSize) * text.getScreenCTM().a);
      });
      var cells = [];
      doc.querySelectorAll("#accounts > tbody > tr > td").forEach(function (cell) {
        if (visible(cell)) { cells.push(parseFloat(win.getComputedStyle(cell).fontSize)); }
      });
      // Nothing in the account list reaches past the list's own box: long ids, explanations
      // and evidence wrap inside it.
      var list = doc.getElementById("accounts");
      var edge = list ? list.parentElement.getBoundingClientRect().right : 0;
      var outside = [];
      if (list) {
        list.querySelectorAll("*").forEach(function (element) {
          if (!visible(element)) { return; }
          var right = element.getBoundingClientRect().right;
          if (right > edge + 1 && outside.length < 8) { outside.push(describe(element) + " to " + Math.round(right)); }
        });
      }
      var wide = [];
      doc.querySelectorAll("body *").forEach(function (element) {
        if (!visible(element) || element.closest(".scroll")) { return; }
        var right = element.getBoundingClientRect().right;
        if (right > win.innerWidth + 1 && wide.length < 8) { wide.push(describe(element) + " to " + Math.round(right)); }
      });
      var firstRow = doc.querySelector("#accounts > tbody");
      var head = doc.querySelector("#accounts > thead");
      return {
        scrollWidth: doc.documentElement.scrollWidth,
        innerWidth: win.innerWidth,
        overflowFlag: doc.body.getAttribute("data-overflow"),
        widerThanWindow: wide,
        smallestText: smallest,
        smallText: small,
        chartLabels: labels.length,
        smallestChartLabel: labels.length ? Math.min.apply(null, labels) : null,
        smallestAccountCell: cells.length ? Math.min.apply(null, cells) : null,
        accountsAsCards: !!(firstRow && win.getComputedStyle(firstRow).display === "block"
          && head && win.getComputedStyle(head).display === "none"),
        outsideList: outside,
        drawnBars: doc.body.getAttribute("data-drawn-bars"),
        actionsBottom: doc.getElementById("actions")
          ? Math.round(doc.getElementById("actions").getBoundingClientRect().bottom + win.scrollY) : null,
        cardsBottom: doc.getElementById("headline")
          ? Math.round(doc.getElementById("headline").getBoundingClientRect().bottom + win.scrollY) : null
      };
    }
    function focusables(doc) {
      var found = [];
      doc.querySelectorAll("a[href], select, input, button, th[data-sort], [tabindex]").forEach(function (element) {
        found.push({ element: describe(element), tabIndex: element.tabIndex, shown: visible(element) });
      });
      return { focusables: found };
    }
    var result = { steps: [] };
    var loads = 0;
    var position = 0;
    function finish() {
      document.getElementById("result").textContent = JSON.stringify(result);
    }
    // Carries out the steps in order; an "open" step loads the frame again (a query makes it a
    // new document, not a jump within the old one) and goes on once it has loaded.
    function proceed() {
      try {
        var win = frame.contentWindow;
        var doc = frame.contentDocument;
        while (position < plan.length) {
          var step = plan[position];
          position++;
          var measured;
          if (step["do"] === "open") {
            loads++;
            frame.src = "report.html?load=" + loads + (step.fragment ? "#" + step.fragment : "");
            return;
          } else if (step["do"] === "layout") {
            measured = layout(win, doc);
          } else if (step["do"] === "focusables") {
            measured = focusables(doc);
          } else {
            if (step["do"] === "click") {
              var targets = doc.querySelectorAll(step.selector);
              var target = targets[step.index];
              if (!target) { throw new Error("nothing matches " + step.selector + " [" + step.index + "]"); }
              target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: win }));
            } else if (step["do"] === "type") {
              var box = doc.getElementById("filter-account");
              box.focus();
              box.value = step.text;
              box.dispatchEvent(new Event("input", { bubbles: true }));
            } else if (step["do"] === "key") {
              var on = doc.querySelector(step.selector);
              if (!on) { throw new Error("nothing matches " + step.selector); }
              on.focus();
              on.dispatchEvent(new KeyboardEvent("keydown", { key: step.key, bubbles: true, cancelable: true }));
            }
            measured = state(win, doc);
          }
          result.steps.push(measured);
        }
      } catch (error) {
        result.error = String(error);
      }
      finish();
    }
    frame.addEventListener("load", function () {
      if (position > 0 && plan[position - 1]["do"] === "open") {
        try {
          result.steps.push(state(frame.contentWindow, frame.contentDocument));
        } catch (error) {
          result.error = String(error);
          finish();
          return;
        }
      }
      proceed();
    });
    </script></body></html>
    """
  }
}
