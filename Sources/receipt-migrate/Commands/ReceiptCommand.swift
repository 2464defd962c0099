import ArgumentParsing
import Chronology
import CryptoSupport
import Foundation
import LegacyReceipts
import Terminal

/// `receipt-migrate receipt`: shows what one raw receipt holds — the ids the migration would
/// look up, the bundle id, the dates — and whether its signature checks out.
///
/// Exit status: 0 when the receipt is readable and its signature is valid or not checked, 1 when
/// it is unreadable or its signature is invalid, 2 for a usage error.
struct ReceiptCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "receipt",
    abstract: "Show the ids, bundle id, dates and signature verdict of a raw receipt.",
    discussion: """
      Reads one receipt as an app sent it: an app receipt (base64 PKCS#7, or the binary \
      receipt file itself) or an iOS 6 transaction receipt (base64 property list). Every \
      in-app purchase is listed, not only the first. With --receipt-root the PKCS#7 \
      signature is checked against that root certificate, at the receipt's creation date \
      unless --at names another instant; without it the signature is not checked. Ids from \
      an unchecked or invalid receipt can still be looked up in the App Store Server API, \
      whose signed answer is the truth.
      """
  )

  @Argument(
    help: ArgumentHelp(
      "The file holding the receipt, or - to read standard input.", valueName: "file"))
  var input: String

  @Option(
    name: .customLong("receipt-root"),
    help: ArgumentHelp(
      "A trusted root certificate (PEM or DER) to check the signature against; repeatable.",
      valueName: "cert"))
  var receiptRoots: [String] = []

  @Option(
    help: ArgumentHelp(
      "The instant to check the signer's chain at (default: the receipt's creation date).",
      valueName: "instant"),
    transform: InstantArgument.parse)
  var at: Timestamp?

  @Flag(help: "Print JSON instead of text.")
  var json = false

  func run() throws {
    let bytes = try readInput()
    let reader = try RawReceiptReader(verifier: verifier())
    let receipt: RawReceipt
    do {
      // The binary receipt file starts with a SEQUENCE; anything else is base64 text.
      receipt =
        bytes.first == 0x30
        ? try reader.read(bytes, signatureInstant: at)
        : try reader.read(base64: String(decoding: bytes, as: UTF8.self), signatureInstant: at)
    } catch {
      throw Unreadable(message: "\(inputName) is not a readable receipt: \(error)")
    }
    print(json ? receipt.jsonText() : Self.text(RawReceiptSummary(receipt)))
    if case .invalid = receipt.signature { throw ExitCode.failure }
  }

  // MARK: - Input

  private var inputName: String { input == "-" ? "standard input" : input }

  private func readInput() throws -> [UInt8] {
    if input == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
    do {
      return Array(try Data(contentsOf: URL(fileURLWithPath: input)))
    } catch {
      throw ValidationError(
        "cannot read the receipt file \(input): \(error.localizedDescription)")
    }
  }

  private func verifier() throws -> CertificateChainVerifier? {
    guard !receiptRoots.isEmpty else { return nil }
    do {
      let roots = try receiptRoots.flatMap { path throws(CryptoError) in
        try X509Certificate.certificates(contentsOfFile: path)
      }
      return try CertificateChainVerifier(trustedRoots: roots)
    } catch {
      throw ValidationError("--receipt-root: \(error)")
    }
  }

  // MARK: - Output

  /// The summary as aligned text: the fields, then a table of the purchases.
  private static func text(_ summary: RawReceiptSummary) -> String {
    let width = summary.fields.map(\.label.count).max() ?? 0
    var lines = summary.fields.map { field in
      field.label + ":" + String(repeating: " ", count: width - field.label.count + 2)
        + field.value
    }
    if !summary.purchases.isEmpty {
      var table = TextTable(
        columns: summary.purchaseColumns.enumerated().map { index, title in
          TextTable.Column(title, alignment: index == 0 ? .right : .left)
        })
      for row in summary.purchases { table.addRow(row) }
      lines.append("")
      lines.append(table.rendered())
    }
    return lines.joined(separator: "\n")
  }

  /// A receipt that cannot be read: exit status 1, with the precise reason.
  private struct Unreadable: CommandFailure {
    var message: String
    var exitCode: ExitCode { .failure }
  }
}
