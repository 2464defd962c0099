import Foundation
import Testing

@testable import ArgumentParsing

@Suite("Running commands and reporting their errors")
struct RunTests {
  @Test("A command that returns from run() ends with nothing to report")
  func success() async {
    #expect(await SampleTool.execute(["store", "check"], columns: 80) == nil)
    #expect(await SampleTool.execute(["store"], columns: 80) == nil)
  }

  @Test("An asynchronous run() is awaited and its CommandFailure sets the exit code")
  func commandFailure() async throws {
    let report = try #require(
      await SampleTool.execute(
        ["store", "vacuum", "--timeout", "1", "--db", "x.sqlite"], columns: 80))
    #expect(report.exitCode == ExitCode(3))
    #expect(report.text == "Error: cannot open x.sqlite; check that the file exists")
    #expect(report.destination == .standardError)
  }

  @Test("CleanExit.message prints to standard output and exits 0")
  func cleanExitMessage() async throws {
    let report = try #require(
      await SampleTool.execute(["store", "vacuum", "--timeout", "1", "--dry-run"], columns: 80))
    #expect(report.exitCode == .success)
    #expect(report.text == "would reclaim space in migration.sqlite")
    #expect(report.destination == .standardOutput)
  }

  @Test("A ValidationError from run() is a usage error of the command that ran")
  func validationErrorFromRun() async throws {
    let report = try #require(await Export.execute(["--enable-sandbox"], columns: 80))
    #expect(report.exitCode == .validationFailure)
    #expect(
      report.text == """
        Error: name at least one account to export
        Usage: export --enable-sandbox|--disable-sandbox [--output <output>]
               [--batch-size <count>] [<accounts> ...]
          See 'export --help' for more information.
        """)
  }

  @Test("An ExitCode thrown from run() exits quietly with that code")
  func exitCodeFromRun() async throws {
    let report = try #require(await Export.execute(["--enable-sandbox", "1"], columns: 80))
    #expect(report.exitCode.rawValue == 4)
    #expect(report.text.isEmpty)
  }

  @Test("Any other error from run() is an internal error, exit code 70")
  func unexpectedError() async throws {
    let report = try #require(
      await Export.execute(["--enable-sandbox", "-o", "/dev/full", "1"], columns: 80))
    #expect(report.exitCode == .internalError)
    #expect(report.exitCode.rawValue == 70)
    #expect(report.text == "Error: the export was interrupted")
  }

  @Test("A command that only groups subcommands shows its help when run")
  func groupingCommandShowsHelp() async throws {
    let report = try #require(await SampleTool.execute([], columns: 80))
    #expect(report.exitCode == .success)
    #expect(report.text == SampleTool.helpMessage(for: SampleTool.self, columns: 80))
  }

  private struct Described: LocalizedError {
    var errorDescription: String? { "the key file is unreadable" }
  }

  private struct Plain: Error {}

  @Test(
    "Exit codes and messages of errors thrown outside the parser",
    arguments: [
      (ExitCode.success as any Error, Int32(0), ""),
      (ExitCode.failure, 1, ""),
      (ExitCode(4), 4, ""),
      (ValidationError("--db is empty"), 2, "--db is empty"),
      (CleanExit.message("done"), 0, "done"),
      (ReclaimFailed(path: "a.sqlite"), 3, "cannot open a.sqlite; check that the file exists"),
      (Described(), 70, "the key file is unreadable"),
      (ExportInterrupted(), 70, "the export was interrupted"),
    ])
  func thrownErrors(error: any Error, code: Int32, message: String) {
    #expect(SampleTool.exitCode(for: error).rawValue == code)
    #expect(SampleTool.message(for: error, columns: 80) == message)
  }

  @Test("An error without a description is still named")
  func plainError() {
    #expect(SampleTool.message(for: Plain(), columns: 80).contains("Plain"))
    #expect(SampleTool.exitCode(for: Plain()) == .internalError)
  }

  @Test("CleanExit.helpRequest shows the help of the command it names")
  func helpRequest() {
    let vacuumHelp = SampleTool.helpMessage(for: Vacuum.self, columns: 80)
    #expect(SampleTool.message(for: CleanExit.helpRequest(Vacuum.self), columns: 80) == vacuumHelp)
    #expect(
      SampleTool.message(for: CleanExit.helpRequest(), columns: 80)
        == SampleTool.helpMessage(for: SampleTool.self, columns: 80))
    #expect(SampleTool.exitCode(for: CleanExit.helpRequest(Vacuum.self)) == .success)
  }
}
