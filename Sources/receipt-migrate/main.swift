// The command-line front end. Every behaviour lives in a library target; this file only dispatches.

let version = "0.1.0-dev"
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--version"] {
  print(version)
} else {
  print("receipt-migrate \(version): no subcommands yet")
}
