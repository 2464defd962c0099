import ArgumentParsing
import Foundation
import Testing

/// The bash script is judged by bash itself (real completions from `complete -F`'s function);
/// the zsh and fish scripts by their shape only, as neither shell is installed here.
@Suite("Completion scripts")
struct CompletionScriptTests {
  static func script(_ shell: String) throws -> String {
    let error = try #require(SampleTool.parsingError(["--generate-completion-script", shell]))
    #expect(SampleTool.exitCode(for: error) == .success)
    return SampleTool.message(for: error)
  }

  /// What bash's completion function offers for the words typed, the last being completed.
  static func complete(_ words: [String], script: String) throws -> [String] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "completion-\(UUID().uuidString).bash")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(script.utf8).write(to: file)
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      "-c",
      "source '\(file.path)'; COMP_WORDS=(receipt-migrate \(quoted)); "
        + "COMP_CWORD=\(words.count); _receipt_migrate; printf '%s\\n' \"${COMPREPLY[@]}\"",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test("bash completes subcommands, nested subcommands, options and listed values")
  func bash() throws {
    let script = try Self.script("bash")
    #expect(try Self.complete(["in"], script: script) == ["ingest"])
    #expect(try Self.complete(["store", "c"], script: script) == ["check"])
    #expect(try Self.complete(["ingest", "--con"], script: script) == ["--concurrency"])
    #expect(try Self.complete(["ingest", "--format", ""], script: script) == ["ndjson", "csv"])
    #expect(try Self.complete(["ingest", "--no-"], script: script) == ["--no-resume"])
  }

  @Test("zsh wraps the bash script; fish lists every subcommand and option")
  func zshAndFish() throws {
    let zsh = try Self.script("zsh")
    #expect(zsh.hasPrefix("#compdef receipt-migrate\nautoload -U +X bashcompinit && bashcompinit"))
    let fish = try Self.script("fish")
    #expect(fish.contains("complete -c receipt-migrate -f -n '__fish_use_subcommand' -a 'ingest'"))
    #expect(fish.contains("-l concurrency -s j -F") || fish.contains("-l concurrency -s j"))
    #expect(fish.contains("-f -a 'ndjson csv'"))
  }

  @Test("a missing or unknown shell is a usage error naming the shells")
  func unknownShell() throws {
    let error = try #require(SampleTool.parsingError(["--generate-completion-script", "tcsh"]))
    #expect(SampleTool.exitCode(for: error).rawValue == 2)
    #expect(SampleTool.message(for: error).contains("'bash', 'zsh', 'fish'"))
  }
}
