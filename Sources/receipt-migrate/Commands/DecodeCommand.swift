import AppStoreServerAPI
import ArgumentParsing
import CryptoSupport
import Foundation

/// `receipt-migrate decode`: look at one signed value.
struct DecodeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "decode",
    abstract: "Verify and decode one signed value (JWS) from the App Store.",
    discussion: """
      Prints the header, the certificate chain's subjects and validity, the verdict with its \
      reason, and the decoded payload as JSON. Exits 0 when the value verifies, 1 when it does \
      not. Without --root nothing can be verified: pass Apple Root CA - G3 (or the simulator's \
      root certificate).
      """
  )

  @Argument(
    help: ArgumentHelp("A JWS, a file holding one, or - for standard input.", valueName: "jws"))
  var value: String

  @Option(
    help: ArgumentHelp(
      "A trusted root certificate (PEM or DER); repeat for several.", valueName: "cert"))
  var root: [String] = []

  @Option(help: "The bundle id the value must name (default: the payload's own).")
  var bundleId: String?

  @Option(
    help:
      "The environment the value must name: Production, Sandbox, or Xcode or LocalTesting for StoreKit testing, whose values are signed by Xcode's own certificate (pass it with --root) (default: the payload's own)."
  )
  var environment: String?

  @Flag(help: "Print the verdict, chain and payload as one JSON object.")
  var json = false

  @Option(help: "The app's Apple id, checked for production app transactions and notifications.")
  var appAppleId: Int64?

  func run() async throws {
    var expectedEnvironment: AppStoreEnvironment?
    if let environment {
      guard let named = AppStoreEnvironment.namedForSignedData(environment) else {
        throw ValidationError(
          "--environment must be Production, Sandbox, Xcode or LocalTesting, not '\(environment)'")
      }
      expectedEnvironment = named
    }
    let jws: String
    let roots: [X509Certificate]
    do {
      jws = try SignedValueInspector.readInput(value) {
        Array(FileHandle.standardInput.readDataToEndOfFile())
      }
      roots = try SignedDataVerifier.loadTrustedRoots(paths: root)
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
    let report = SignedValueInspector.inspect(
      jws, trustedRoots: roots, bundleId: bundleId, environment: expectedEnvironment,
      appAppleId: appAppleId, now: SystemTime.now(), json: json)
    print(report.text, terminator: report.text.hasSuffix("\n") ? "" : "\n")
    if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
  }
}
