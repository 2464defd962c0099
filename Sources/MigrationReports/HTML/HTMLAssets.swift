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
      [hidden]{display:none!important}
      html{-webkit-text-size-adjust:100%}
      body{margin:0;color:var(--ink);background:var(--wash);\
      font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
      header,main,footer{max-width:1240px;margin:0 auto;padding:0 24px}
      header{padding-top:16px}
      footer{color:var(--muted);font-size:14px;padding-bottom:32px}
      a{color:var(--link)}
      :focus-visible{outline:2px solid var(--link);outline-offset:2px}
      section:focus,#filter-count:focus{outline:2px solid var(--link);outline-offset:2px}
      code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;\
      font-size:.92em}
      .eyebrow{margin:0;color:var(--muted);font-size:12px;letter-spacing:.06em;text-transform:uppercase}
      h1{font-size:24px;line-height:1.25;margin:2px 0 4px;font-weight:650}
      h2{font-size:18px;margin:0 0 2px;font-weight:650}
      h3{font-size:15px;margin:16px 0 6px;font-weight:650}
      .meta{color:var(--muted);margin:0 0 10px;overflow-wrap:anywhere}
      .banner{border:1px solid;border-radius:8px;padding:5px 12px;margin:0 0 6px;font-size:14px}
      .banner.simulated{background:#fff7e0;border-color:#eccb75}
      .banner.crossed{background:#fdecea;border-color:#eeb1a7}
      .banner.passed{background:#eaf6ef;border-color:#a9d8bd}
      .banner.redacted{background:#edf3fb;border-color:#b8cfec}
      section{background:var(--paper);border:1px solid var(--line);border-radius:10px;\
      padding:18px 20px;margin:0 0 18px}
      .note{color:var(--muted);margin:0 0 12px;font-size:14px}
      #lead{padding:10px 20px;margin:0 0 12px;border-left:4px solid var(--attn)}
      #lead h2{font-size:16px}
      #lead .when{color:var(--muted);font-weight:400;font-size:14px}
      ul.lead{margin:4px 0 0;padding-left:20px}
      ul.lead li{margin:1px 0}
      .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(145px,1fr));gap:12px;\
      background:none;border:0;padding:0;margin:0 0 12px}
      .card{background:var(--paper);border:1px solid var(--line);border-top:4px solid var(--same);\
      border-radius:8px;padding:8px 14px}
      .card .n{display:block;font-size:26px;font-weight:650;line-height:1.2;\
      font-variant-numeric:tabular-nums}
      .card .l{display:block;color:var(--ink);font-size:14px}
      .card .s{display:block;color:var(--muted);font-size:13px}
      .card.tone-lose{border-top-color:var(--lose)}
      .card.tone-gain{border-top-color:var(--gain)}
      .card.tone-term{border-top-color:var(--term)}
      .card.tone-attn{border-top-color:var(--attn)}
      .card.tone-total{border-top-color:var(--ink)}
      #actions{padding:12px 20px}
      ol.actions{margin:6px 0 0;padding-left:24px}
      ol.actions li{margin:2px 0;padding-left:4px}
      ol.actions li::marker{font-weight:650}
      ol.actions li.tone-lose::marker{color:var(--lose)}
      ol.actions li.tone-gain::marker{color:var(--gain)}
      ol.actions li.tone-term::marker{color:var(--term)}
      ol.actions li.tone-attn::marker{color:var(--attn)}
      ol.actions li.tone-same{color:var(--muted)}
      ol.actions .money{color:var(--muted);white-space:nowrap}
      ol.actions .command{display:inline-block;overflow-wrap:anywhere}
      pre.command{background:var(--wash);border:1px solid var(--line);border-radius:6px;\
      padding:8px 12px;margin:0 0 12px;white-space:pre-wrap;overflow-wrap:anywhere}
      .pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:18px}
      .pair>section{margin:0 0 18px}
      @media (max-width:1020px){.pair{grid-template-columns:minmax(0,1fr)}}
      svg.chart{display:block;max-width:100%;height:auto}
      svg.chart.narrow{display:none}
      svg .label{font-size:13px;fill:var(--ink)}
      svg .value{font-size:13px;fill:var(--muted);font-variant-numeric:tabular-nums}
      svg .axis{stroke:var(--line);stroke-width:1}
      svg a:focus .label,svg a:hover .label{text-decoration:underline}
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
      td.id{overflow-wrap:anywhere}
      a.acct{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
      #lost td,#changes td{overflow-wrap:anywhere}
      table.matrix{width:auto;font-variant-numeric:tabular-nums}
      .matrix th,.matrix td{border:1px solid var(--line);padding:6px 10px}
      .matrix td{text-align:right;min-width:52px}
      .matrix thead th{vertical-align:bottom;max-width:76px}
      .matrix th[scope=row]{text-align:left}
      .matrix .corner{font-weight:400;color:var(--muted)}
      .legend{display:flex;gap:14px;flex-wrap:wrap;color:var(--muted);font-size:14px;margin:10px 0 0}
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
      .filters{display:flex;gap:8px 12px;align-items:center;flex-wrap:wrap;margin:8px 0 12px}
      .filters label{font-size:14px;color:var(--muted)}
      .filters select,.filters input{font:inherit;font-size:14px;padding:5px 8px;max-width:100%;\
      border:1px solid var(--line);border-radius:6px;background:var(--paper);color:var(--ink)}
      .filters input{width:22em}
      .filters .note{flex-basis:100%;margin:0}
      #filter-count{color:var(--muted);font-size:14px}
      #accounts thead th{position:sticky;top:0;background:var(--paper);z-index:1;\
      box-shadow:inset 0 -1px 0 var(--line)}
      #accounts td.id{font-size:14px;min-width:12em}
      #accounts tbody.e>tr:first-child>td{border-bottom:0}
      #accounts tr.ev>td{padding-top:0}
      details>summary{cursor:pointer;color:var(--link);font-size:14px;width:max-content;max-width:100%}
      details[open]>summary{margin-bottom:6px}
      .evidence{border-left:3px solid var(--line);padding:2px 0 6px 14px;margin:0 0 6px 2px}
      .evidence h4{font-size:14px;margin:12px 0 4px;font-weight:650;overflow-wrap:anywhere}
      .evidence h4:first-child{margin-top:2px}
      .evidence table{font-size:13px;margin:0 0 4px;width:auto;min-width:60%}
      .evidence td.t{white-space:nowrap}
      .evidence th,.evidence td{padding:3px 6px}
      .evidence td.side{white-space:nowrap;color:var(--muted)}
      .evidence p{margin:2px 0 6px;overflow-wrap:anywhere}
      .evidence ul{margin:2px 0 6px;padding-left:20px}
      .tag{display:inline-block;font-size:11px;border:1px solid #e2b36c;color:#7a4a00;\
      background:#fff6e5;border-radius:4px;padding:0 5px;margin-left:6px;white-space:nowrap}
      .facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 18px;margin:0 0 8px}
      .facts dt{color:var(--muted)}
      .facts dd{margin:0;overflow-wrap:anywhere}
      a.card{color:inherit;text-decoration:none}
      a.card:hover,a.card:focus{outline:2px solid var(--link)}
      th[data-sort]{cursor:pointer}
      th[aria-sort=ascending]::after{content:" ▲"}
      th[aria-sort=descending]::after{content:" ▼"}
      @media (max-width:600px){
      header,main,footer{padding:0 10px}header{padding-top:14px}
      h1{font-size:21px}
      section{padding:14px 12px}
      .cards{grid-template-columns:repeat(3,minmax(0,1fr));gap:6px}
      .card{padding:6px 8px}.card .n{font-size:21px}
      .card .s{font-size:14px}
      code,.mono{font-size:1em}
      svg.chart.wide{display:none}svg.chart.narrow{display:block}
      .matrix th,.matrix td{padding:4px 6px;min-width:0}
      .filters select,.filters input{font-size:16px;width:100%}
      table{font-size:14px}
      .facts{grid-template-columns:1fr;gap:0}
      .facts dd{margin:0 0 6px}
      #accounts,#accounts tbody,#accounts tr,#accounts td{display:block;width:auto}
      #accounts thead{display:none}
      #accounts tbody{border:1px solid var(--line);border-radius:8px;margin:0 0 10px;padding:8px 10px}
      #accounts tbody>tr>td{border:0;padding:2px 0;min-width:0}
      #accounts td.id{font-weight:600}
      #accounts tr:first-child>td:nth-child(3)::before{content:"Impact: ";color:var(--muted)}
      #accounts tr:first-child>td:nth-child(4):not(:empty)::before{content:"Cause: ";color:var(--muted)}
      #accounts tr:first-child>td:nth-child(4):empty{display:none}
      #accounts tr:first-child>td:nth-child(6):not(:empty)::before{content:"Your table: ";color:var(--muted)}
      #accounts tr:first-child>td:nth-child(6):empty{display:none}
      .evidence{padding-left:8px;margin-left:0}
      .evidence table,.evidence tbody,.evidence tr{display:block;width:auto;min-width:0}
      .evidence table{font-size:14px;border-top:1px solid var(--line)}
      .evidence thead{display:none}
      .evidence tr{padding:4px 0;border-bottom:1px solid var(--line)}
      .evidence td{display:inline;border:0;padding:0;overflow-wrap:anywhere}
      .evidence td:not(:first-child)::before{content:" · ";color:var(--muted)}
      .evidence td.t,.evidence td.side{white-space:normal}
      .evidence td:empty{display:none}
      }
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
      // How many chart bars the browser laid out with a size on screen (the charts of the
      // layout the window's width shows): the headless browser check reads it.
      var drawn = 0;
      var bars = document.querySelectorAll("svg.chart rect.bar");
      for (var b = 0; b < bars.length; b++) {
        var box = bars[b].getBoundingClientRect();
        if (box.width > 0 && box.height > 0) {
          drawn++;
        }
      }
      body.setAttribute("data-drawn-bars", String(drawn));
      function markOverflow() {
        // Whether the page is wider than the window (the phone-width check reads it).
        body.setAttribute(
          "data-overflow",
          String(document.documentElement.scrollWidth > window.innerWidth + 1)
        );
      }
      // A link to a section (not a filter) moves the focus there too, so that a keyboard user
      // goes where the eye does; the address keeps the filter it states.
      function showSection(element) {
        element.scrollIntoView({ block: "start" });
        if (!element.hasAttribute("tabindex")) {
          element.setAttribute("tabindex", "-1");
        }
        element.focus({ preventScroll: true });
      }
      var table = document.getElementById("accounts");
      var select = document.getElementById("filter-category");
      var search = document.getElementById("filter-account");
      var shown = document.getElementById("filter-count");
      var list = document.getElementById("discrepancies");
      if (!table || !select || !search || !shown || !list) {
        document.addEventListener("click", function (event) {
          var link = event.target.closest ? event.target.closest("a") : null;
          var href = link ? link.getAttribute("href") || "" : "";
          var target = href.charAt(0) === "#" && href.indexOf("=") === -1
            ? document.getElementById(decodeURIComponent(href.slice(1))) : null;
          if (target) {
            event.preventDefault();
            showSection(target);
          }
        });
        markOverflow();
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
      // The filters a link can set; one at a time, as the menu offers them.
      var selectors = ["category", "impact", "action", "table", "change"];
      var options = {};
      for (var o = 0; o < select.options.length; o++) {
        options[select.options[o].value] = select.options[o];
      }
      // Matching accounts are collapsed by default: the first view shows what differs.
      var differing = rows.some(function (row) { return row.getAttribute("data-cat") !== "match"; });
      var initial = differing ? "category=*" : "category=";
      var filter = { key: "category", value: differing ? "*" : "" };
      function passes(row) {
        var want = filter.value;
        switch (filter.key) {
          case "category":
            var cat = row.getAttribute("data-cat");
            return want === "" || (want === "*" ? cat !== "match" : cat === want);
          case "impact":
            return row.getAttribute("data-impact") === want;
          case "action":
            return row.getAttribute("data-action") === want
              || row.getAttribute("data-taction") === want;
          case "table":
            return row.getAttribute("data-table") === want;
          case "change":
            var side = want.indexOf(":") === -1 ? "primary" : want.slice(0, want.indexOf(":"));
            var kind = want.slice(want.indexOf(":") + 1);
            var primary = row.getAttribute("data-change") === kind;
            var tabled = row.getAttribute("data-tchange") === kind;
            return side === "primary" ? primary : side === "table" ? tabled : primary || tabled;
        }
        return true;
      }
      function apply() {
        var needle = search.value.trim().toLowerCase();
        var count = 0;
        for (var i = 0; i < rows.length; i++) {
          var visible = passes(rows[i]) && (needle === "" || texts[i].indexOf(needle) !== -1);
          if (rows[i].hidden === visible) {
            rows[i].hidden = !visible;
          }
          if (visible) {
            count++;
          }
        }
        var label = select.options[select.selectedIndex].textContent.replace(/ \\([0-9,]+\\)$/, "");
        shown.textContent = "Showing " + count.toLocaleString("en-US") + " of " + total + suffix
          + ": " + label + (needle === "" ? "" : ", matching \\u201c" + search.value.trim() + "\\u201d");
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
      // The address always states the filter in force: the menu's choice, the search, the sort.
      function encode(value) {
        return encodeURIComponent(value).replace(/%3A/g, ":");
      }
      function address() {
        var parts = [select.value.replace(/=(.*)$/, function (all, value) { return "=" + encode(value); })];
        if (search.value.trim() !== "") {
          parts.push("q=" + encode(search.value.trim()));
        }
        if (sorted.column !== "") {
          parts.push("sort=" + sorted.column + (sorted.descending ? "-desc" : ""));
        }
        return "#" + parts.join("&");
      }
      function record() {
        history.replaceState(null, "", address());
      }
      function choose(value) {
        var option = options[value] || options[initial];
        select.value = option.value;
        var equals = option.value.indexOf("=");
        filter = { key: option.value.slice(0, equals), value: option.value.slice(equals + 1) };
      }
      // Reads the filter from the address; returns the account it names, if any.
      function readLocation() {
        var parameters = new URLSearchParams(window.location.hash.slice(1));
        var named = selectors.filter(function (key) { return parameters.has(key); });
        var account = parameters.get("account");
        if (named.length === 1) {
          choose(named[0] + "=" + parameters.get(named[0]));
        } else {
          // An account's link shows it whatever it is; anything else, what differs.
          choose(named.length === 0 && account !== null ? "category=" : initial);
        }
        var needle = account !== null ? account : parameters.get("q");
        search.value = needle === null ? "" : needle;
        var sort = parameters.get("sort");
        if (sort !== null) {
          sortBy(sort.replace(/-desc$/, ""), /-desc$/.test(sort));
        }
        return account;
      }
      // Shows what a link did: the account's own row, opened, or else the list.
      function reveal(account) {
        var target = null;
        if (account !== null) {
          for (var i = 0; i < rows.length && target === null; i++) {
            var link = rows[i].rows[0].cells[0].querySelector("a");
            if (!rows[i].hidden && link && link.textContent === account) {
              target = rows[i];
            }
          }
        }
        if (target !== null) {
          var details = target.querySelector("details");
          if (details) {
            details.open = true;
          }
          target.scrollIntoView({ block: "start" });
          target.rows[0].cells[0].querySelector("a").focus({ preventScroll: true });
        } else {
          list.scrollIntoView({ block: "start" });
          shown.focus({ preventScroll: true });
        }
        body.setAttribute("data-revealed", target !== null ? "account" : "list");
      }
      function navigate(showing) {
        var account = readLocation();
        apply();
        if (showing) {
          reveal(account);
        }
      }
      document.addEventListener("click", function (event) {
        var link = event.target.closest ? event.target.closest("a") : null;
        var href = link ? link.getAttribute("href") || "" : "";
        if (href.charAt(0) !== "#" || event.defaultPrevented || event.button > 0
          || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
          return;
        }
        if (href.indexOf("=") !== -1) {
          // A filter: even the one in force again still takes the reader to the list.
          event.preventDefault();
          history.pushState(null, "", href);
          navigate(true);
          return;
        }
        var target = document.getElementById(decodeURIComponent(href.slice(1)));
        if (target) {
          event.preventDefault();
          showSection(target);
        }
      });
      window.addEventListener("popstate", function () { navigate(true); });
      window.addEventListener("hashchange", function () { navigate(true); });
      select.addEventListener("change", function () {
        choose(select.value);
        apply();
        record();
      });
      search.addEventListener("input", function () {
        apply();
        record();
      });
      function clear() {
        choose(initial);
        search.value = "";
        apply();
        record();
      }
      search.addEventListener("keydown", function (event) {
        if (event.key === "Enter") {
          event.preventDefault();
          for (var i = 0; i < rows.length; i++) {
            if (!rows[i].hidden) {
              rows[i].scrollIntoView({ block: "start" });
              rows[i].rows[0].cells[0].querySelector("a").focus({ preventScroll: true });
              return;
            }
          }
        }
      });
      list.addEventListener("keydown", function (event) {
        if (event.key === "Escape") {
          event.preventDefault();
          clear();
          search.focus();
        }
      });
      headers.forEach(function (header) {
        header.setAttribute("tabindex", "0");
        function toggle() {
          var name = header.getAttribute("data-sort");
          sortBy(name, sorted.column === name ? !sorted.descending : false);
          record();
        }
        header.addEventListener("click", toggle);
        header.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            toggle();
          }
        });
      });
      var hash = window.location.hash.slice(1);
      if (hash.indexOf("=") !== -1) {
        // A shared view: filtered as its address says, and shown.
        navigate(true);
      } else {
        navigate(false);
        if (hash === "") {
          record();
        }
      }
      document.getElementById("filters").hidden = false;
      markOverflow();
      body.setAttribute("data-ready", "true");
    })();

    """
}
