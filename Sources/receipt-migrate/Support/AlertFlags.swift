import ArgumentParsing

/// How an unattended run tells a person: `--quiet`, `--json`, `--notify-command`, `--webhook`,
/// `--metrics-file` and `--keep-reports`, shared by `migrate` and `audit`. All but the first two
/// are kept in the store's recipe once used.
struct AlertFlags: ParsableArguments {
  @Flag(
    help: ArgumentHelp(
      "Print nothing on a clean run (exit 0), and only the headline on exit 1 or 4: with cron, "
        + "whose mail carries a job's output, the mail is the alert."))
  var quiet = false

  @Flag(help: "Print the run's run.json (the report's schema) on standard output.")
  var json = false

  @Option(
    help: ArgumentHelp(
      "A command run through /bin/sh with the headline as JSON on its standard input when the "
        + "run exits 1 or 4 (at most 30 s; a failure is reported, not fatal).",
      valueName: "command"))
  var notifyCommand: String?

  @Option(
    help: ArgumentHelp(
      "A URL the headline is POSTed to as JSON (with a Slack-compatible text field) when the run "
        + "exits 1 or 4; never secrets, never account ids.", valueName: "url"))
  var webhook: String?

  @Option(
    help: ArgumentHelp(
      "Write the run's figures to this Prometheus text file after every run (for "
        + "node_exporter's textfile collector).", valueName: "path"))
  var metricsFile: String?

  @Option(
    help: ArgumentHelp(
      "Keep only the newest N report folders of this store (never the latest nor the next "
        + "run's baseline), and say what was removed.", valueName: "n"))
  var keepReports: Int?

  func check() throws {
    if quiet && json { throw ValidationError("--quiet and --json cannot be combined") }
    if let keepReports, keepReports < 1 {
      throw ValidationError("--keep-reports must be 1 or more, not \(keepReports)")
    }
    if let webhook {
      _ = try RecipeValueParser.parse([webhook], for: .webhook)
    }
  }
}
