import Glibc
import Terminal
import Testing

@Suite("Terminal capabilities")
struct TerminalCapabilitiesTests {
  /// A pipe's write end: a stream that is not a terminal.
  private func withPipe<T>(_ body: (Int32) throws -> T) throws -> T {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    return try body(ends[1])
  }

  @Test(
    "A pipe is not a terminal: width from COLUMNS, else 80, and never colour",
    arguments: [
      (["COLUMNS": "132", "TERM": "xterm-256color"], 132),
      (["TERM": "xterm-256color"], 80),
      (["COLUMNS": "wide"], 80),
      (["COLUMNS": "0"], 80),
      (["COLUMNS": "-5"], 80),
    ])
  func pipeCapabilities(environment: [String: String], width: Int) throws {
    let capabilities = try withPipe {
      TerminalCapabilities.detect(fileDescriptor: $0, environment: environment)
    }
    #expect(
      capabilities == TerminalCapabilities(isTerminal: false, width: width, allowsColor: false))
  }

  @Test("A terminal reports its own width, which wins over COLUMNS")
  func terminalWidth() throws {
    let terminal = try PseudoTerminal(columns: 123, rows: 40)
    let capabilities = TerminalCapabilities.detect(
      fileDescriptor: terminal.terminal, environment: ["COLUMNS": "60", "TERM": "xterm"])
    #expect(capabilities == TerminalCapabilities(isTerminal: true, width: 123, allowsColor: true))
  }

  @Test(
    "Colour on a terminal needs a TERM other than dumb and no non-empty NO_COLOR",
    arguments: [
      (["TERM": "xterm-256color"], true),
      (["TERM": "xterm-256color", "NO_COLOR": ""], true),
      (["TERM": "xterm-256color", "NO_COLOR": "1"], false),
      (["TERM": "dumb"], false),
      ([:], false),
    ])
  func terminalColour(environment: [String: String], allowsColor: Bool) throws {
    let terminal = try PseudoTerminal(columns: 100, rows: 30)
    let capabilities = TerminalCapabilities.detect(
      fileDescriptor: terminal.terminal, environment: environment)
    #expect(capabilities.isTerminal)
    #expect(capabilities.allowsColor == allowsColor)
  }
}
