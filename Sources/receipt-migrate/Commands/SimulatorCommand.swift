import ArgumentParsing

/// `receipt-migrate simulator`: the App Store Server API simulator's tools.
struct SimulatorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulator",
    abstract: "Generate simulated App Store worlds and serve them over the App Store Server API.",
    subcommands: [
      SimulatorGenerateCommand.self, SimulatorServeCommand.self, SimulatorExpectedCommand.self,
    ]
  )
}
