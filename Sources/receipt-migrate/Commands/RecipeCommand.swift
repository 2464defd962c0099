import ArgumentParsing

/// `receipt-migrate recipe`: the store's recipe — what the job runs with.
struct RecipeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "recipe",
    abstract: "Show or change what the store's runs use: inputs, budgets, alerts.",
    discussion: """
      A store remembers what it was first run with: the legacy inputs, the catalogue, the \
      team table, the token mapping, --fail-on, the refresh budgets, where reports go and the \
      alerts. Every later migrate, audit, compare and report uses these unless a flag is given \
      (the flag wins for that run only, and the run says so). A setting the recipe does not \
      hold yet is recorded the first time a run uses it.
      """,
    subcommands: [RecipeShowCommand.self, RecipeSetCommand.self, RecipeUnsetCommand.self],
    defaultSubcommand: RecipeShowCommand.self
  )
}
