/// The style sheet and script inlined into `report.html`. Both are fixed text: nothing from a
/// run is ever interpolated into them, which is what lets the page's Content Security Policy
/// allow exactly these two by hash and nothing else.
enum HTMLAssets {
  /// Shading levels of the transition matrix: a cell's level is its share of the largest cell,
  /// in fifths, so the matrix needs no inline styles.
  static let shadingLevels = 5

  static let style: String = {
    var css = """
      :root{--ink:#1f2328;--muted:#57606a;--line:#d8dee4;--paper:#fff;--wash:#f4f6f8;\
      --link:#0b5cad;--lose:#c2412d;--gain:#1f7a5a;--term:#b7791f;--attn:#6f42c1;--same:#9aa4ae;\
      --relabel:#b7791f}
      *{box-sizing:border-box}
      html{-webkit-text-size-adjust:100%}
      body{margin:0;color:var(--ink);background:var(--wash);\
      font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
      header,main,footer{max-width:1240px;margin:0 auto;padding:0 24px}
      header{padding-top:28px}
      footer{color:var(--muted);font-size:13px;padding-bottom:32px}
      code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;\
      font-size:.92em}
      .eyebrow{margin:0;color:var(--muted);font-size:12px;letter-spacing:.06em;text-transform:uppercase}
      h1{font-size:26px;line-height:1.25;margin:4px 0 6px;font-weight:650}
      h2{font-size:18px;margin:0 0 2px;font-weight:650}
      h3{font-size:15px;margin:16px 0 6px;font-weight:650}
      .meta{color:var(--muted);margin:0 0 16px}
      .banner{border:1px solid;border-radius:8px;padding:10px 14px;margin:0 0 12px}
      .banner.simulated{background:#fff7e0;border-color:#eccb75}
      .banner.crossed{background:#fdecea;border-color:#eeb1a7}
      .banner.passed{background:#eaf6ef;border-color:#a9d8bd}
      .banner.redacted{background:#edf3fb;border-color:#b8cfec}
      section{background:var(--paper);border:1px solid var(--line);border-radius:10px;\
      padding:18px 20px;margin:0 0 18px}
      .note{color:var(--muted);margin:0 0 12px;font-size:14px}
      .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(145px,1fr));gap:12px;\
      background:none;border:0;padding:0}
      .card{background:var(--paper);border:1px solid var(--line);border-top:4px solid var(--same);\
      border-radius:8px;padding:10px 14px}
      .card .n{display:block;font-size:28px;font-weight:650;line-height:1.2;\
      font-variant-numeric:tabular-nums}
      .card .l{display:block;color:var(--ink);font-size:14px}
      .card .s{display:block;color:var(--muted);font-size:13px}
      .card.tone-lose{border-top-color:var(--lose)}
      .card.tone-gain{border-top-color:var(--gain)}
      .card.tone-term{border-top-color:var(--term)}
      .card.tone-attn{border-top-color:var(--attn)}
      .card.tone-total{border-top-color:var(--ink)}
      .pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:18px}
      .pair>section{margin:0 0 18px}
      @media (max-width:1020px){.pair{grid-template-columns:1fr}}
      svg.chart{display:block;max-width:100%;height:auto}
      svg .label{font-size:13px;fill:var(--ink)}
      svg .value{font-size:12px;fill:var(--muted);font-variant-numeric:tabular-nums}
      svg .axis{stroke:var(--line);stroke-width:1}
      rect.tone-lose{fill:var(--lose)}
      rect.tone-gain{fill:var(--gain)}
      rect.tone-term{fill:var(--term)}
      rect.tone-attn{fill:var(--attn)}
      rect.tone-same{fill:var(--same)}
      table{border-collapse:collapse;width:100%;font-size:14px}
      th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
      th{font-weight:600;color:var(--muted);font-size:12px;letter-spacing:.03em}
      .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
      .scroll{overflow-x:auto}
      table.matrix{width:auto;font-variant-numeric:tabular-nums}
      .matrix th,.matrix td{border:1px solid var(--line);padding:6px 10px}
      .matrix td{text-align:right;min-width:52px}
      .matrix thead th{vertical-align:bottom;max-width:76px}
      .matrix th[scope=row]{text-align:left}
      .matrix .corner{font-weight:400;color:var(--muted)}
      .legend{display:flex;gap:14px;flex-wrap:wrap;color:var(--muted);font-size:13px;margin:10px 0 0}
      .legend span::before{content:"";display:inline-block;width:10px;height:10px;border-radius:2px;\
      margin-right:5px;vertical-align:-1px;background:var(--c)}
      .legend .k-lose{--c:var(--lose)}
      .legend .k-gain{--c:var(--gain)}
      .legend .k-relabel{--c:var(--relabel)}
      .legend .k-same{--c:var(--same)}
      .pill{display:inline-block;padding:1px 9px;border-radius:999px;font-size:12.5px;font-weight:600;\
      white-space:nowrap;background:#eef0f2;color:#424a53}
      .pill.tone-lose{background:#fbe4df;color:#8f2617}
      .pill.tone-gain{background:#dff2e9;color:#17573f}
      .pill.tone-term{background:#fbefd6;color:#7a4f0c}
      .pill.tone-attn{background:#ece4f9;color:#4c2a8a}
      .filters{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin:8px 0 12px}
      .filters label{font-size:14px;color:var(--muted)}
      .filters select,.filters input{font:inherit;font-size:14px;padding:5px 8px;\
      border:1px solid var(--line);border-radius:6px;background:var(--paper);color:var(--ink)}
      .filters input{min-width:240px}
      #filter-count{color:var(--muted);font-size:14px}
      #accounts thead th{position:sticky;top:0;background:var(--paper);z-index:1;\
      box-shadow:inset 0 -1px 0 var(--line)}
      #accounts td.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",\
      monospace;font-size:13px;word-break:break-all;min-width:13.5em}
      #accounts tbody.e>tr:first-child>td{border-bottom:0}
      #accounts tr.ev>td{padding-top:0}
      details>summary{cursor:pointer;color:var(--link);font-size:13px;width:max-content}
      details[open]>summary{margin-bottom:6px}
      .evidence{border-left:3px solid var(--line);padding:2px 0 6px 14px;margin:0 0 6px 2px}
      .evidence h4{font-size:13px;margin:12px 0 4px;font-weight:650}
      .evidence h4:first-child{margin-top:2px}
      .evidence table{font-size:12.5px;margin:0 0 4px;width:auto;min-width:60%}
      .evidence td.t{white-space:nowrap}
      .evidence th,.evidence td{padding:3px 6px}
      .evidence td.side{white-space:nowrap;color:var(--muted)}
      .evidence p{margin:2px 0 6px}
      .evidence ul{margin:2px 0 6px;padding-left:20px}
      .tag{display:inline-block;font-size:11px;border:1px solid #e2b36c;color:#7a4a00;\
      background:#fff6e5;border-radius:4px;padding:0 5px;margin-left:6px;white-space:nowrap}
      .facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 18px;margin:0 0 8px}
      .facts dt{color:var(--muted)}
      .facts dd{margin:0}
      a.card{color:inherit;text-decoration:none}
      a.card:hover,a.card:focus{outline:2px solid var(--line)}
      th[data-sort]{cursor:pointer}
      th[aria-sort=ascending]::after{content:" ▲"}
      th[aria-sort=descending]::after{content:" ▼"}
      @media (max-width:600px){header,main,footer{padding:0 12px}.cards{grid-template-columns:1fr 1fr}
      .matrix th,.matrix td{padding:4px 6px;min-width:0}.filters{flex-wrap:wrap}
      table{font-size:13px}td.id{word-break:break-all}}
      @media print{body{background:#fff}section{break-inside:avoid}.filters{display:none}}

      """
    // Shading of the transition matrix: four kinds of transition, five levels each.
    let kinds = [
      ("same", "154 164 174"), ("lose", "194 65 45"), ("gain", "31 122 90"),
      ("relabel", "183 121 31"),
    ]
    for (kind, rgb) in kinds {
      for level in 1...shadingLevels {
        let alpha = 0.08 + 0.5 * Double(level - 1) / Double(shadingLevels - 1)
        css +=
          ".matrix td.\(kind).s\(level){background:rgb(\(rgb) / \(SVGNumber.format(alpha * 100))%)}\n"
      }
    }
    return css
  }()

  static let script = """
    (function () {
      "use strict";
      var body = document.body;
      window.addEventListener("error", function (event) {
        body.setAttribute("data-error", String(event.message));
      });
      // How many chart bars the browser actually laid out with a size: the headless browser
      // check reads it, and it costs one pass over a few dozen elements.
      var drawn = 0;
      var bars = document.querySelectorAll("svg.chart rect.bar");
      for (var b = 0; b < bars.length; b++) {
        var box = bars[b].getBBox();
        if (box.width > 0 && box.height > 0) {
          drawn++;
        }
      }
      body.setAttribute("data-drawn-bars", String(drawn));
      var table = document.getElementById("accounts");
      var category = document.getElementById("filter-category");
      var search = document.getElementById("filter-account");
      var shown = document.getElementById("filter-count");
      if (!table || !category || !search || !shown) {
        body.setAttribute("data-ready", "true");
        return;
      }
      var rows = Array.prototype.slice.call(table.tBodies);
      var texts = rows.map(function (row) {
        return row.getAttribute("data-text") || row.rows[0].cells[0].textContent.toLowerCase();
      });
      var total = rows.length.toLocaleString("en-US");
      var all = Number(table.getAttribute("data-accounts"));
      var suffix = all > rows.length
        ? " listed here (of " + all.toLocaleString("en-US") + ")"
        : " accounts";
      var impact = "";
      // Matching accounts are collapsed by default: the first view shows what differs.
      var differing = rows.some(function (row) { return row.getAttribute("data-cat") !== "match"; });
      function apply() {
        var wanted = category.value;
        var needle = search.value.trim().toLowerCase();
        var count = 0;
        for (var i = 0; i < rows.length; i++) {
          var cat = rows[i].getAttribute("data-cat");
          var visible = (wanted === "" || (wanted === "*" ? cat !== "match" : cat === wanted))
            && (impact === "" || rows[i].getAttribute("data-impact") === impact)
            && (needle === "" || texts[i].indexOf(needle) !== -1);
          if (rows[i].hidden === visible) {
            rows[i].hidden = !visible;
          }
          if (visible) {
            count++;
          }
        }
        shown.textContent = "Showing " + count.toLocaleString("en-US") + " of " + total + suffix;
      }
      // Sorting: by a column's text, numbers in order; a second click reverses it.
      var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
      var sorted = { column: "", descending: false };
      function sortBy(name, descending) {
        var index = -1;
        for (var h = 0; h < headers.length; h++) {
          if (headers[h].getAttribute("data-sort") === name) {
            index = h;
          }
        }
        if (index < 0) {
          return;
        }
        var order = rows.map(function (row, position) {
          return { row: row, text: texts[position], key: row.rows[0].cells[index].textContent };
        });
        order.sort(function (a, b) {
          var c = a.key.localeCompare(b.key, "en", { numeric: true });
          return descending ? -c : c;
        });
        for (var o = 0; o < order.length; o++) {
          rows[o] = order[o].row;
          texts[o] = order[o].text;
          table.appendChild(order[o].row);
        }
        for (var k = 0; k < headers.length; k++) {
          headers[k].removeAttribute("aria-sort");
        }
        headers[index].setAttribute("aria-sort", descending ? "descending" : "ascending");
        sorted = { column: name, descending: descending };
        body.setAttribute("data-sorted", name + (descending ? " desc" : ""));
      }
      headers.forEach(function (header) {
        header.addEventListener("click", function () {
          var name = header.getAttribute("data-sort");
          sortBy(name, sorted.column === name ? !sorted.descending : false);
        });
      });
      function readLocation() {
        var parameters = new URLSearchParams(window.location.hash.slice(1));
        var wanted = parameters.get("category");
        category.value = differing ? "*" : "";
        if (wanted !== null) {
          for (var i = 0; i < category.options.length; i++) {
            if (category.options[i].value === wanted) {
              category.value = wanted;
            }
          }
        }
        impact = parameters.get("impact") || "";
        if (impact !== "" && wanted === null) {
          category.value = "";
        }
        var account = parameters.get("account") || parameters.get("q");
        if (account !== null) {
          search.value = account;
        }
        var sort = parameters.get("sort");
        if (sort !== null) {
          sortBy(sort.replace(/-desc$/, ""), /-desc$/.test(sort));
        }
      }
      category.addEventListener("change", function () {
        impact = "";
        apply();
      });
      search.addEventListener("input", apply);
      window.addEventListener("hashchange", function () {
        readLocation();
        apply();
      });
      readLocation();
      apply();
      // Whether the page is wider than the window (a phone-width check reads it).
      body.setAttribute(
        "data-overflow",
        String(document.documentElement.scrollWidth > window.innerWidth + 1)
      );
      document.getElementById("filters").hidden = false;
      body.setAttribute("data-ready", "true");
    })();

    """
}
