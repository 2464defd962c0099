import ArgumentParsing
import Testing

@Suite("Mistakes in a command's declaration")
struct DeclarationErrorTests {
  @Test(
    "Are internal errors (exit code 70) that name the command and the fix",
    arguments: [
      (
        DuplicateNames.self as any ParsableCommand.Type,
        "command 'duplicate-names': two properties answer to '--db'; rename one with "
          + "name: .customLong(_:) or .customShort(_:)"
      ),
      (
        PlainStoredProperty.self,
        "command 'plain-stored-property': the stored property 'attempts' is not an @Option, "
          + "@Flag, @Argument or @OptionGroup; make it computed or a 'let' with a value, or "
          + "leave it out of CodingKeys"
      ),
      (
        MisplacedRepeatingArgument.self,
        "command 'misplaced-repeating-argument': the repeating argument '<inputs>' takes every "
          + "remaining argument, so it must be declared after the other positional arguments"
      ),
    ])
  func declarationError(command: any ParsableCommand.Type, message: String) throws {
    let parsingError = command.parsingError([])
    let error = try #require(parsingError)
    #expect(command.exitCode(for: error) == .internalError)
    #expect(command.message(for: error, columns: 80) == message)
  }
}
