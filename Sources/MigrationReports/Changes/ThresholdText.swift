/// The sentence about a run's `--fail-on` threshold, shared by the terminal, Markdown and HTML
/// renderers: crossed, not crossed, or not crossed but the run is incomplete — never "within
/// the threshold" on a run that could not see everything.
enum ThresholdText {
  /// The sentence.
  ///
  /// - Parameters:
  ///   - failOn: the threshold and its outcome.
  ///   - exitCode: the exit code the run asks for, if known.
  ///   - flag: how the renderer shows `--fail-on EXPRESSION` (as code in Markdown and HTML).
  ///   - escape: how the renderer escapes the user's selectors named in the text.
  /// - Returns: one sentence.
  static func sentence(
    _ failOn: FailOnThreshold, exitCode: Int32?, flag: (String) -> String = { $0 },
    escape: (String) -> String = { $0 }
  ) -> String {
    let named = flag("--fail-on \(failOn.expression)")
    let tally = failOn.tally.map { ": \(escape($0))" } ?? ""
    if failOn.isCrossed {
      return "Threshold crossed: \(named)\(tally); exiting with code 1."
    }
    var text = "\(named) not crossed\(tally)"
    if !failOn.unevaluated.isEmpty {
      text +=
        ", but \(escape(failOn.unevaluated.joined(separator: ", "))) could not be decided (the run "
        + "compared with used other inputs)"
    }
    if exitCode == 4 {
      text += "; the run is incomplete (exit 4), so accounts it could not see may cross it"
    }
    return text + "."
  }
}
