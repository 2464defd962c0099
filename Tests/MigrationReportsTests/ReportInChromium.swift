import Testing

/// The suites that open report.html in headless Chromium, nested here so that they run one
/// browser at a time: each launch takes a core, and the project's machine has two. Skipped, with
/// a line that says so, when no Chromium is installed.
@Suite(
  "report.html in headless Chromium", .serialized,
  .enabled(
    if: Chromium.isAvailable,
    "no Chromium found (chromium, chromium-browser, google-chrome or $CHROMIUM): the browser checks of report.html were skipped"
  ))
enum ReportInChromium {}
