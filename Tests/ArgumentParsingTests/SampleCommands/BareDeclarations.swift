import ArgumentParsing

/// Declares every kind of argument without attribute arguments or defaults, which must still
/// give the command an implicit `init()`.
struct BareDeclarations: ParsableCommand {
  @Option var name: String
  @Option var nickname: String?
  @Option var tag: [String]
  @Flag var force: Bool
  @Flag var verbose: Int
  @Argument var first: Int
  @Argument var second: Int?
  @Argument var rest: [String]
}
