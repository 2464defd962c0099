import Foundation
import Testing

/// Certificates made with the `openssl` command for one test run, and `openssl s_server -www`
/// processes that present them on a loopback port.
///
/// The certificates are made in a temporary directory that is removed as soon as they are read
/// (the fixtures are shared by a whole suite, in a `static let` nothing deinitialises); each
/// server gets a directory of its own with its certificate and key, removed when it stops.
final class TLSTestFixtures: Sendable {
  /// The test authority's certificate, to trust.
  let authorityPEM: String
  /// Each leaf's certificate and private key, in PEM, by name.
  private let leaves: [String: (certificate: Data, key: Data)]

  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: opensslPath) }
  static let opensslPath = "/usr/bin/openssl"

  /// A test authority; a leaf it signs for localhost and 127.0.0.1 (`good`), one it signs for
  /// another name (`wrong-host`); and a self-signed leaf for localhost (`untrusted`).
  init() throws {
    let directory = try Self.makeTemporaryDirectory()
    defer { Self.removeTemporaryDirectory(directory) }
    let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    try Self.openssl(
      ["req", "-x509"] + curve + [
        "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650", "-subj", "/CN=Test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
      ], in: directory)
    for (name, names) in [
      ("good", "DNS:localhost,IP:127.0.0.1"), ("wrong-host", "DNS:wrong.example"),
    ] {
      try Self.openssl(
        ["req"] + curve + [
          "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)",
        ],
        in: directory)
      try "subjectAltName=\(names)\n".write(
        to: directory.appendingPathComponent("\(name).ext"), atomically: true, encoding: .utf8)
      try Self.openssl(
        [
          "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key",
          "-CAcreateserial", "-days", "3650", "-extfile", "\(name).ext", "-out", "\(name).pem",
        ], in: directory)
    }
    try Self.openssl(
      ["req", "-x509"] + curve + [
        "-keyout", "untrusted.key", "-out", "untrusted.pem", "-days", "3650", "-subj",
        "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ], in: directory)
    authorityPEM = try String(
      contentsOf: directory.appendingPathComponent("ca.pem"), encoding: .utf8)
    var leaves: [String: (certificate: Data, key: Data)] = [:]
    for name in ["good", "wrong-host", "untrusted"] {
      leaves[name] = (
        try Data(contentsOf: directory.appendingPathComponent("\(name).pem")),
        try Data(contentsOf: directory.appendingPathComponent("\(name).key"))
      )
    }
    self.leaves = leaves
  }

  /// A new, empty `http-client-tls-<UUID>` in the system's temporary directory.
  static func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "http-client-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// Removes a directory from ``makeTemporaryDirectory()`` and everything in it.
  static func removeTemporaryDirectory(_ directory: URL) {
    do {
      try FileManager.default.removeItem(at: directory)
    } catch {
      FileHandle.standardError.write(
        Data("warning: could not remove the test directory \(directory.path): \(error)\n".utf8))
    }
  }

  /// `openssl s_server -www` presenting the certificate `name` on 127.0.0.1, for one
  /// connection; the port is the one it reports.
  func startServer(_ name: String) throws -> TLSServerProcess {
    guard let leaf = leaves[name] else { throw POSIXError(.ENOENT) }
    let directory = try Self.makeTemporaryDirectory()
    do {
      try leaf.certificate.write(to: directory.appendingPathComponent("\(name).pem"))
      try leaf.key.write(to: directory.appendingPathComponent("\(name).key"))
      return try TLSServerProcess(
        arguments: [
          "s_server", "-accept", "127.0.0.1:0", "-cert", "\(name).pem", "-key", "\(name).key",
          "-www", "-naccept", "1",
        ], directory: directory)
    } catch {
      Self.removeTemporaryDirectory(directory)
      throw error
    }
  }

  private static func openssl(_ arguments: [String], in directory: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: opensslPath)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw POSIXError(.EINVAL)
    }
  }
}

/// A running `openssl s_server`, killed when the test is done with it; its directory is
/// removed once it has stopped.
final class TLSServerProcess: Sendable {
  let port: Int
  private let process: Process
  private let directory: URL

  init(arguments: [String], directory: URL) throws {
    self.directory = directory
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TLSTestFixtures.opensslPath)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    // "ACCEPT 127.0.0.1:40123" once it listens.
    var text = ""
    while !text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .contains(where: { $0.hasPrefix("ACCEPT") })
    {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { break }
      text += String(decoding: data, as: UTF8.self)
    }
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
      let port = line.split(separator: ":").last.flatMap({ Int($0) })
    else {
      process.terminate()
      process.waitUntilExit()
      throw POSIXError(.EADDRNOTAVAIL)
    }
    self.port = port
  }

  func stop() {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    TLSTestFixtures.removeTemporaryDirectory(directory)
  }
}
