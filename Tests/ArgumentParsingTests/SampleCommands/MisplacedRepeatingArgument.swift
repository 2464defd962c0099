import ArgumentParsing

/// Declares a repeating positional argument before another one, which can never receive a
/// value.
struct MisplacedRepeatingArgument: ParsableCommand {
  @Argument var inputs: [String]
  @Argument var output: String
}
