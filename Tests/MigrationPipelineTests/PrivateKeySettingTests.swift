import Foundation
import TestDirectories
import Testing

@testable import MigrationPipeline

/// The key as one setting given two ways (`ASC_PRIVATE_KEY_PATH` / `private_key_path`, or
/// `ASC_PRIVATE_KEY` / `private_key`), across the environment and the configuration file.
@Suite("The App Store Connect key as a path or as text, in the environment or the file")
struct PrivateKeySettingTests {
  static let others = [
    "ASC_ISSUER_ID": "3c5b1f0e-6a2d-4e8b-9f71-0d4c2b8a6e13", "ASC_KEY_ID": "SIMKEY0001",
    "APP_BUNDLE_ID": "com.example.app",
  ]
  static let damaged =
    "-----BEGIN PRIVATE KEY-----\nU0VDUkVUQk9EWVNIT1VMRE5PVExFQUtTRUNSRVRCT0RZ\n"
    + "-----END PRIVATE KEY-----\n"

  @Test("both in the environment: refused naming both variables")
  func bothInEnvironment() {
    var environment = Self.others
    environment["ASC_PRIVATE_KEY"] = Self.damaged
    environment["ASC_PRIVATE_KEY_PATH"] = "/keys/k.p8"
    #expect {
      try ToolConfiguration.resolve(file: nil, environment: environment)
    } throws: { error in
      let text = "\(error)"
      return text.contains("both ASC_PRIVATE_KEY_PATH and ASC_PRIVATE_KEY are set")
        && !text.contains("U0VDUkVU")
    }
  }

  @Test("both in the file: refused naming both members and the file")
  func bothInFile() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("config.json")
    try Data(
      #"{"issuer_id": "i", "key_id": "K", "bundle_id": "b", "private_key_path": "k.p8", "private_key": "x"}"#
        .utf8
    ).write(to: file)
    #expect {
      try ToolConfiguration.resolve(file: file.path, environment: ["HOME": "/home/x"])
    } throws: { error in
      "\(error)".contains(
        "both private_key_path in \(file.path) and private_key in \(file.path) are set")
    }
  }

  @Test("the environment's key, either way, replaces the file's key, either way")
  func environmentWins() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("config.json")
    try Data(
      #"{"issuer_id": "i", "key_id": "K", "bundle_id": "b", "private_key_path": "k.p8"}"#.utf8
    ).write(to: file)
    // Not "both set": the file's path is replaced, so the damaged text is what is judged.
    #expect {
      try ToolConfiguration.resolve(
        file: file.path, environment: ["HOME": "/home/x", "ASC_PRIVATE_KEY": Self.damaged])
    } throws: { error in
      let text = "\(error)"
      return text.contains("ASC_PRIVATE_KEY: cannot use the App Store Connect key")
        && !text.contains("private_key_path") && !text.contains("U0VDUkVU")
    }
  }

  @Test("a malformed private_key in the file names the member, not ASC_PRIVATE_KEY_PATH")
  func malformedInFile() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("config.json")
    try Data(
      #"{"issuer_id": "i", "key_id": "K", "bundle_id": "b", "private_key": "not a key"}"#.utf8
    ).write(to: file)
    #expect {
      try ToolConfiguration.resolve(file: file.path, environment: ["HOME": "/home/x"])
    } throws: { error in
      let text = "\(error)"
      return text.contains("private_key in \(file.path): cannot use")
        && !text.contains("not a key") && !text.contains("ASC_PRIVATE")
    }
  }

  @Test("a variable's name is replaced whole, never inside a longer name")
  func wholeNames() {
    #expect(
      ToolConfiguration.replacingName(
        "ASC_PRIVATE_KEY", in: "set ASC_PRIVATE_KEY_PATH (or ASC_PRIVATE_KEY)", with: "member")
        == "set ASC_PRIVATE_KEY_PATH (or member)")
  }

  @Test("the text alone is a configured key: nothing is missing for it")
  func missingSettings() {
    var environment = Self.others
    environment["ASC_PRIVATE_KEY"] = Self.damaged
    #expect(ToolConfiguration.credentialsConfigured(file: nil, environment: environment))
    let missing = ToolConfiguration.missingSettings(file: nil, environment: environment)
    #expect(!missing.contains { $0.variable.contains("PRIVATE") })
    let none = ToolConfiguration.missingSettings(file: nil, environment: [:])
    #expect(none.map(\.variable).contains("ASC_PRIVATE_KEY_PATH (or ASC_PRIVATE_KEY)"))
  }
}
