import ArgumentParsing

/// `receipt-migrate notifications`: the notifications Apple never delivered to your server.
struct NotificationsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notifications",
    abstract: "Hand the notifications Apple never delivered to your server.",
    subcommands: [NotificationsReplayCommand.self]
  )
}
