import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import JSON
import Testing

/// The simulator and this project's verifier, judged by Apple's official Python library
/// (`app-store-server-library`, installed by `Scripts/test` into `.venv-conformance/`).
///
/// The verdicts come from code nobody on this team wrote: `apple_conformance.py` (beside this
/// file) drives every endpoint the simulator serves through Apple's `AppStoreServerAPIClient`,
/// unmodified but for its base URL, and verifies every signed value with Apple's
/// `SignedDataVerifier`; payload members are compared with `world.json` as the script reads it.
/// Two inputs come from this project's own code and are said to be: the subscription status each
/// purchase should have (`Customer.subscriptionStatus`, the world's truth) and the order ids
/// (`OrderIdentifier`). The second test compares this project's verifier with Apple's on values
/// signed in Apple's exact shapes, with the reason of each rejection.
///
/// Apple's client signs its request tokens with the machine's clock, so the simulator checks them
/// against the wall clock here: the one place a test reads it. Without the library (PyPI not
/// reachable when `Scripts/test` ran) both tests are skipped, and say so.
@Suite("Conformance: Apple's own library against the simulator", .serialized)
struct AppleConformanceTests {
  static let harness = ConformanceHarness.locate()

  @Test(
    "every endpoint, driven by Apple's AppStoreServerAPIClient; every signed value verified by Apple's SignedDataVerifier",
    .enabled(if: harness.python != nil, "\(ConformanceHarness.missingMessage)"),
    .timeLimit(.minutes(5)))
  func everyEndpoint() throws {
    let run = try #require(try ConformanceRun.start(harness: Self.harness))
    defer { run.stop() }
    let result = try run.execute()
    let failures = result["failures"]?.arrayOfStrings ?? ["the script wrote no failures list"]
    #expect(failures.isEmpty, "\(failures.prefix(40).joined(separator: "\n"))")
    let endpoints = Set(result["endpoints"]?.arrayOfStrings ?? [])
    #expect(
      endpoints.isSuperset(of: [
        "history v1", "history v2", "statuses", "transaction", "refund", "order",
        "app transaction", "notifications", "app account token", "errors",
      ]), "\(endpoints.sorted())")
    // At least every transaction (each is fetched alone) and every app transaction.
    let world = run.setup.world
    let known = world.customers.filter { !$0.isForgotten }
    let floor =
      known.count + known.flatMap(\.transactions).filter { $0.purchaseDate <= world.now }.count
    let verified = result["signed_values_verified"]?.int64Value ?? 0
    #expect(
      verified >= Int64(floor), "only \(verified) signed values were verified by Apple's library")
  }

  @Test(
    "this project's verifier reaches Apple's verdict, for the same reason, on values in Apple's shapes",
    .enabled(if: harness.python != nil, "\(ConformanceHarness.missingMessage)"),
    .timeLimit(.minutes(5)))
  func sameVerdicts() throws {
    let run = try #require(try ConformanceRun.start(harness: Self.harness))
    defer { run.stop() }
    let result = try run.execute(shapesOnly: true)
    let verdicts = try #require(result["shape_verdicts"])
    #expect(run.shapes.count >= 18)
    for shape in run.shapes {
      let apple = try #require(verdicts[shape.name], "no verdict of Apple's for \(shape.name)")
      let status = apple["status"]?.stringValue ?? ""
      let cause = apple["cause"]?.stringValue ?? ""
      let ours = run.verify(shape)
      #expect(
        ConformanceShape.appleStatus(of: ours) == status,
        "\(shape.name): Apple \(status) (\(cause)), ours \(ours.map(\.description) ?? "valid")")
      #expect(shape.expectedStatus == status, "\(shape.name): Apple said \(status) (\(cause))")
      switch ours {
      case .missingCertificateChain?:
        #expect(cause.contains("x5c"), "\(shape.name): Apple's cause is \(cause)")
      case .badSignature?:
        #expect(cause.contains("InvalidSignatureError"), "\(shape.name): Apple's cause is \(cause)")
      default:
        break
      }
    }
  }
}

extension JSONValue {
  /// The strings of an array value.
  var arrayOfStrings: [String]? {
    guard case .array(let items) = self else { return nil }
    return items.compactMap(\.stringValue)
  }
}
