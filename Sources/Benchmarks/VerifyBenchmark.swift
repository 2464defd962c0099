import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation

/// Measures how many signed transactions per second one core verifies and decodes with a warm
/// chain cache, and, in the same run, how many Apple's Python library verifies from the same
/// JWS set and root (the peer baseline).
///
/// Run it pinned to one core (`taskset -c 1`) from a release build; `Scripts/bench-verify.sh`
/// does both.
public enum VerifyBenchmark {
  /// The bundle id of the benchmark's transactions.
  public static let bundleId = "com.example.bench"

  /// The app Apple id of the benchmark's transactions.
  public static let appAppleId: Int64 = 1_234_567_890

  /// The figures of one run.
  public struct Report: Sendable {
    /// How many distinct JWS were verified.
    public var count: Int
    /// Seconds each timed pass of the Swift verifier took for all of them, in run order.
    public var swiftPassSeconds: [Double]
    /// Seconds each pass of bare ES256 signature checks over the same JWS took (no parsing, no
    /// chain, no decoding): the floor OpenSSL sets, timed alongside each Swift pass.
    public var signatureOnlyPassSeconds: [Double]

    /// How many JWS the Python library verified, if it ran.
    public var pythonCount: Int?
    /// Seconds the Python library took, if it ran.
    public var pythonSeconds: Double?
    /// The Python library's version, if it ran.
    public var pythonLibraryVersion: String?
    /// Why the Python baseline did not run, if it did not.
    public var pythonSkipped: String?

    /// Swift verifications per second in the median pass.
    public var swiftPerSecond: Double {
      let sorted = swiftPassSeconds.sorted()
      return Double(count) / sorted[sorted.count / 2]
    }

    /// Swift verifications per second in the fastest pass (the least disturbed by other load).
    public var swiftBestPerSecond: Double { Double(count) / (swiftPassSeconds.min() ?? .infinity) }

    /// Bare ES256 checks per second in the median pass.
    public var signatureOnlyPerSecond: Double {
      let sorted = signatureOnlyPassSeconds.sorted()
      return Double(count) / sorted[sorted.count / 2]
    }

    /// Python verifications per second, if it ran.
    public var pythonPerSecond: Double? {
      guard let pythonCount, let pythonSeconds, pythonSeconds > 0 else { return nil }
      return Double(pythonCount) / pythonSeconds
    }

    /// The figures as lines of text.
    public var text: String {
      var lines = [
        "bench verify: \(count) distinct signed transactions, one test chain, warm chain cache",
        "swift   AppStoreServerAPI: \(Self.format(swiftPerSecond)) verified+decoded/s median, "
          + "\(Self.format(swiftBestPerSecond)) best, of \(swiftPassSeconds.count) passes over "
          + "\(count) JWS",
        "floor   bare ES256 signature checks (OpenSSL): \(Self.format(signatureOnlyPerSecond))/s "
          + "median; full verification runs at "
          + "\(Self.format(100 * swiftPerSecond / signatureOnlyPerSecond))% of it",
      ]
      if let pythonPerSecond, let pythonCount, let pythonSeconds {
        lines.append(
          "python  app-store-server-library \(pythonLibraryVersion ?? "?"): "
            + "\(Self.format(pythonPerSecond)) verified+decoded/s "
            + "(\(pythonCount) in \(Self.format(pythonSeconds, digits: 3)) s)")
        lines.append(
          "ratio   \(Self.format(swiftPerSecond / pythonPerSecond, digits: 1))x (Swift median / "
            + "Python)")
      } else {
        lines.append("python  baseline skipped: \(pythonSkipped ?? "unknown reason")")
      }
      return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double, digits: Int = 0) -> String {
      String(format: "%.\(digits)f", value)
    }
  }

  /// Signs `count` transactions, verifies them all once to warm up, then times `passes` more
  /// passes; then runs the Python baseline script on the first `pythonCount` of the same JWS.
  ///
  /// The machine is shared, so the median and the best pass are both reported.
  ///
  /// - Parameters:
  ///   - count: How many distinct transactions to sign and verify.
  ///   - passes: How many timed passes over all of them.
  ///   - pythonScript: The path of `Scripts/bench-verify-python.sh`, or `nil` to skip the baseline.
  ///   - pythonCount: How many of the JWS the (slower) Python library verifies.
  /// - Returns: The figures.
  /// - Throws: If the chain cannot be made, a JWS cannot be signed, or one fails verification.
  public static func run(
    count: Int = 20_000, passes: Int = 5, pythonScript: String?, pythonCount: Int = 3_000
  ) throws -> Report {
    let start: Int64 = 1_704_067_200_000  // 2024-01-01
    let chain = try CertificateAuthorityChain.generate(
      .appStoreLike(notBefore: start, notAfter: start + 3_650 * Timestamp.millisecondsPerDay))
    let signer = JWSSigner(chain: chain)
    var signed: [String] = []
    signed.reserveCapacity(count)
    for index in 0..<count {
      signed.append(try signer.sign(transaction(index: index, start: start)))
    }
    let verifier = try SignedDataVerifier(
      trustedRoots: [chain.root.certificate], bundleId: bundleId, appAppleId: appAppleId,
      environment: .production, notice: { _ in })

    // Warm-up pass: fills the chain cache and the OpenSSL context pools, and checks every JWS.
    var checksum: Int64 = 0
    for jws in signed {
      checksum &+= try verifier.verifyTransaction(jws).payload.price ?? 0
    }
    // The floor: only the ES256 check of each JWS, with its inputs prepared beforehand.
    let leafKey = try chain.leaf.certificate.publicKey()
    let prepared: [(input: [UInt8], signature: [UInt8])] = try signed.map { jws in
      let cut = jws.utf8.lastIndex(of: UInt8(ascii: ".")) ?? jws.utf8.endIndex
      let signature = try Base64URL.decode(jws[jws.utf8.index(after: cut)...])
      return (Array(jws.utf8[..<cut]), signature)
    }

    let clock = ContinuousClock()
    var seconds: [Double] = []
    var floorSeconds: [Double] = []
    for _ in 0..<max(1, passes) {
      let floorBegan = clock.now
      for (input, signature) in prepared {
        precondition(leafKey.isValidSignature(signature, for: input), "a signature did not verify")
      }
      floorSeconds.append(floorBegan.duration(to: clock.now).inSeconds)
      let began = clock.now
      var timedChecksum: Int64 = 0
      for jws in signed {
        timedChecksum &+= try verifier.verifyTransaction(jws).payload.price ?? 0
      }
      let elapsed = began.duration(to: clock.now)
      precondition(timedChecksum == checksum, "a timed pass decoded different payloads")
      seconds.append(elapsed.inSeconds)
    }

    var report = Report(
      count: count, swiftPassSeconds: seconds, signatureOnlyPassSeconds: floorSeconds)
    guard let pythonScript else {
      report.pythonSkipped = "no script given"
      return report
    }
    runPython(
      script: pythonScript, jws: Array(signed.prefix(pythonCount)),
      root: chain.root.certificate, into: &report)
    return report
  }

  /// A transaction with every common member, distinct per index.
  static func transaction(index: Int, start: Int64) -> JWSTransaction {
    let purchase = start + Int64(index) * 60_000
    return JWSTransaction(
      transactionId: String(2_000_000_000_000_000 + index),
      originalTransactionId: String(2_000_000_000_000_000 + index / 12),
      webOrderLineItemId: String(2_000_000_100_000_000 + index), bundleId: bundleId,
      productId: "com.example.bench.monthly", subscriptionGroupIdentifier: "21000001",
      purchaseDate: Timestamp(millisecondsSince1970: purchase),
      originalPurchaseDate: Timestamp(millisecondsSince1970: purchase),
      expiresDate: Timestamp(millisecondsSince1970: purchase + 30 * Timestamp.millisecondsPerDay),
      quantity: 1, type: .autoRenewableSubscription, inAppOwnershipType: .purchased,
      signedDate: Timestamp(millisecondsSince1970: purchase + 1_000), environment: .production,
      storefront: "USA", storefrontId: "143441", transactionReason: .renewal, currency: "USD",
      price: 9_990, appTransactionId: String(704_289_572_311_800_000 + index / 12))
  }

  private static func runPython(
    script: String, jws: [String], root: X509Certificate, into report: inout Report
  ) {
    guard findInPath("python3") != nil else {
      report.pythonSkipped = "python3 is not on PATH"
      return
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("bench-verify-\(UUID().uuidString)")
    defer {
      do {
        try FileManager.default.removeItem(at: directory)
      } catch {
        // A temporary directory left behind costs nothing but disk; the figures stand.
      }
    }
    let jwsFile = directory.appendingPathComponent("jws.txt")
    let rootFile = directory.appendingPathComponent("root.der")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try Data((jws.joined(separator: "\n") + "\n").utf8).write(to: jwsFile)
      try Data(root.derRepresentation).write(to: rootFile)
    } catch {
      report.pythonSkipped = "cannot write the JWS set to \(directory.path): \(error)"
      return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script, jwsFile.path, rootFile.path, bundleId, String(appAppleId)]
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      report.pythonSkipped = "cannot start \(script): \(error)"
      return
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    var values: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    guard process.terminationStatus == 0,
      let verified = values["python_verified"].flatMap(Int.init),
      let seconds = values["python_seconds"].flatMap(Double.init)
    else {
      report.pythonSkipped =
        "\(script) exited with status \(process.terminationStatus); its output: "
        + text.suffix(500)
      return
    }
    report.pythonCount = verified
    report.pythonSeconds = seconds
    report.pythonLibraryVersion = values["python_library_version"]
  }

  private static func findInPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }
}
