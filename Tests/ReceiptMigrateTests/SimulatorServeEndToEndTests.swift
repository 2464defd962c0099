import Foundation
import TestDirectories
import Testing

@Suite("receipt-migrate simulator serve, end to end")
struct SimulatorServeEndToEndTests {
  /// A working directory holding a generated world in `world/`; pair it with
  /// `defer { TemporaryDirectory.remove(directory) }`.
  func generatedWorld() throws -> URL {
    try TemporaryDirectory.make(prefix: "serve") { directory in
      let generated = try Tool.run(
        ["simulator", "generate", "--accounts", "12", "--seed", "4", "--out", "world"],
        in: directory)
      #expect(generated.status == 0, "\(generated.standardError)")
    }
  }

  @Test(
    "generate refuses a folder that is not empty, and overwrites it with --force keeping signing/")
  func generateRefusesToOverwrite() throws {
    let directory = try generatedWorld()
    defer { TemporaryDirectory.remove(directory) }
    let world = directory.appendingPathComponent("world")
    let root = try Data(contentsOf: world.appendingPathComponent("signing/root.pem"))
    let refused = try Tool.run(
      ["simulator", "generate", "--accounts", "12", "--seed", "5", "--out", "world"], in: directory)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("is not empty"), "\(refused.standardError)")
    #expect(refused.standardError.contains("--force"))
    let unchanged = try String(
      contentsOf: world.appendingPathComponent("world.json"), encoding: .utf8)
    #expect(unchanged.contains(#""seed":"4""#), "nothing was overwritten")
    let forced = try Tool.run(
      ["simulator", "generate", "--accounts", "12", "--seed", "5", "--out", "world", "--force"],
      in: directory)
    #expect(forced.status == 0, "\(forced.standardError)")
    let rewritten = try String(
      contentsOf: world.appendingPathComponent("world.json"), encoding: .utf8)
    #expect(rewritten.contains(#""seed":"5""#))
    #expect(try Data(contentsOf: world.appendingPathComponent("signing/root.pem")) == root)
  }

  @Test("serves a world to the lookup command, logs each request, and stops on SIGTERM")
  func serveAndLookUp() throws {
    let directory = try generatedWorld()
    defer { TemporaryDirectory.remove(directory) }
    let server = Process()
    server.executableURL = Tool.executable
    server.arguments = ["simulator", "serve", "--world", "world", "--rate-limit", "off"]
    server.currentDirectoryURL = directory
    let output = Pipe()
    server.standardOutput = output
    server.standardError = Pipe()
    try server.run()
    defer {
      if server.isRunning { server.terminate() }
      server.waitUntilExit()
    }

    // The banner is written in one piece as soon as both listeners are open.
    var banner = ""
    while !banner.contains("Serving;") {
      let chunk = output.fileHandleForReading.availableData
      #expect(!chunk.isEmpty, "serve ended before its banner: \(banner)")
      if chunk.isEmpty { return }
      banner += String(decoding: chunk, as: UTF8.self)
    }
    let exports = try #require(banner.split(separator: "\n").first { $0.contains("export ") })
    var environment = ProcessInfo.processInfo.environment
    for assignment in exports.split(separator: " ").dropFirst() {
      let parts = assignment.split(separator: "=", maxSplits: 1)
      environment[String(parts[0])] = String(parts[1])
    }
    #expect(environment["ASC_PRIVATE_KEY_PATH"]?.hasSuffix("world/signing/api-key.p8") == true)
    #expect(environment["APP_STORE_PRODUCTION_URL"]?.hasPrefix("http://127.0.0.1:") == true)
    #expect(
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("world/signing/root.pem").path))

    let accounts = try String(
      contentsOf: directory.appendingPathComponent("world/accounts.csv"), encoding: .utf8)
    let customer = try #require(
      accounts.split(separator: "\n").dropFirst().first?.split(separator: ",")[1])
    let lookup = Process()
    lookup.executableURL = Tool.executable
    lookup.arguments = ["lookup", String(customer)]
    lookup.environment = environment
    let lookupOutput = Pipe()
    lookup.standardOutput = lookupOutput
    lookup.standardError = Pipe()
    try lookup.run()
    let answer = String(
      decoding: lookupOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    lookup.waitUntilExit()
    #expect(lookup.terminationStatus == 0, "\(answer)")
    #expect(answer.hasPrefix("Customer of transaction \(customer):"))

    server.terminate()
    let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    server.waitUntilExit()
    #expect(server.terminationStatus == 0)
    #expect(rest.contains("GET /inApps/v2/history/\(customer) 200"))
    #expect(rest.contains("Received SIGTERM; stopping."))
    #expect(rest.contains("Answered 3 requests."))
  }

  @Test("a bad specification is a usage error; a missing world a configuration error")
  func refusals() throws {
    let directory = try generatedWorld()
    defer { TemporaryDirectory.remove(directory) }
    let badFaults = try Tool.run(
      ["simulator", "serve", "--world", "world", "--faults", "history:explode=1"], in: directory)
    #expect(badFaults.status == 2)
    #expect(badFaults.standardError.contains("explode"))
    let missing = try Tool.run(["simulator", "serve", "--world", "nowhere"], in: directory)
    #expect(missing.status == 3)
    #expect(missing.standardError.contains("simulator generate"))
  }
}
