import Chronology
import CryptoSupport
import Foundation
import Glibc
import LegacyReceipts

/// Measures how fast raw app receipts are read on one thread, on a corpus of receipts with 50
/// in-app purchases each, signed by a generated chain like the simulator's: half DER, half BER
/// with indefinite lengths in the envelope around a definite-length payload — the shape of
/// Xcode's receipts.
///
/// Three figures: reading the decoded bytes (``AppReceiptReader/read(_:)``: the envelope walk
/// and every field of every purchase); the whole path ingest takes from the stored base64 text
/// (``RawReceiptReader/seeds(fromBase64:signatureInstant:)``, without signature checks); and,
/// as a worst case no issuer is known to write, BER receipts whose payload has indefinite
/// lengths too, which the reader must scan twice and reads without its fast path.
///
/// Time is the thread's CPU time, not the wall clock: "per second on one core" should not count
/// the moments another process had the core, which on a shared machine is most of the noise.
public enum RawReceiptBenchmark {
  /// The figures of one run.
  public struct Result: Sendable, CustomStringConvertible {
    /// How many distinct receipts the corpus held.
    public var corpusSize: Int
    /// In-app purchases per receipt.
    public var purchasesPerReceipt: Int
    /// The mean size of a receipt's bytes.
    public var averageReceiptBytes: Int
    /// Receipts read per second from their bytes.
    public var receiptsPerSecondFromBytes: Double
    /// Receipts read per second from their base64 text, seeds included.
    public var receiptsPerSecondFromBase64: Double
    /// Receipts read per second from their bytes when the payload has indefinite lengths.
    public var receiptsPerSecondIndefinitePayloads: Double

    /// The figures, one per line.
    public var description: String {
      """
      raw receipts: \(corpusSize) receipts of \(purchasesPerReceipt) in-app purchases, \
      \(averageReceiptBytes) bytes on average (half DER, half BER envelopes like Xcode's)
        from bytes:  \(Self.rate(receiptsPerSecondFromBytes)) receipts/s on one thread
        from base64: \(Self.rate(receiptsPerSecondFromBase64)) receipts/s on one thread \
      (base64 decoding and seeds included)
        worst case:  \(Self.rate(receiptsPerSecondIndefinitePayloads)) receipts/s on one thread \
      (BER with indefinite lengths in the payload too)
      """
    }

    private static func rate(_ value: Double) -> String {
      String(Int(value.rounded()))
    }
  }

  /// Builds a corpus and reads it repeatedly for at least `duration` of CPU time per figure.
  ///
  /// - Parameters:
  ///   - corpusSize: How many distinct receipts to build.
  ///   - purchasesPerReceipt: In-app purchases per receipt.
  ///   - duration: The least CPU time each figure is measured for.
  /// - Returns: The figures.
  /// - Throws: An error if the corpus cannot be built or a receipt fails to read, which would be
  ///   a bug.
  public static func run(
    corpusSize: Int = 200, purchasesPerReceipt: Int = 50, duration: Duration = .seconds(3)
  ) throws -> Result {
    let corpus = try makeCorpus(
      size: corpusSize, purchasesPerReceipt: purchasesPerReceipt, indefinitePayloads: false)
    let texts = corpus.map { Data($0).base64EncodedString() }
    let indefinite = try makeCorpus(
      size: corpusSize, purchasesPerReceipt: purchasesPerReceipt, indefinitePayloads: true)
    let fromBytes = try measure(count: corpus.count, for: duration) { index throws in
      try check(AppReceiptReader.read(corpus[index]).inAppPurchases.count, purchasesPerReceipt)
    }
    let reader = RawReceiptReader()
    let fromBase64 = try measure(count: texts.count, for: duration) { index throws in
      try check(reader.seeds(fromBase64: texts[index]).transactionIds.count, purchasesPerReceipt)
    }
    let worstCase = try measure(count: indefinite.count, for: duration) { index throws in
      try check(
        AppReceiptReader.read(indefinite[index]).inAppPurchases.count, purchasesPerReceipt)
    }
    return Result(
      corpusSize: corpusSize, purchasesPerReceipt: purchasesPerReceipt,
      averageReceiptBytes: corpus.reduce(0) { $0 + $1.count } / max(corpus.count, 1),
      receiptsPerSecondFromBytes: fromBytes, receiptsPerSecondFromBase64: fromBase64,
      receiptsPerSecondIndefinitePayloads: worstCase)
  }

  /// A benchmark that cannot run as designed.
  struct CorpusError: Error, CustomStringConvertible {
    var message: String
    var description: String { "raw receipt benchmark: \(message)" }
  }

  /// Checks that a receipt read whole, so the figures never time a failure.
  private static func check(_ count: Int, _ expected: Int) throws {
    guard count == expected else {
      throw CorpusError(message: "a receipt read with \(count) purchases instead of \(expected)")
    }
  }

  /// Reads items `0..<count` round-robin until `duration` of CPU time has passed; returns reads
  /// per CPU second.
  private static func measure(count: Int, for duration: Duration, _ body: (Int) throws -> Void)
    throws -> Double
  {
    // One untimed pass warms caches and allocator pools.
    for index in 0..<count { try body(index) }
    var reads = 0
    let start = threadCPUTime()
    var elapsed = Duration.zero
    repeat {
      for index in 0..<count { try body(index) }
      reads += count
      elapsed = threadCPUTime() - start
    } while elapsed < duration
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(reads) / seconds
  }

  /// The CPU time the calling thread has used.
  private static func threadCPUTime() -> Duration {
    var time = timespec()
    // CLOCK_THREAD_CPUTIME_ID cannot fail for the calling thread on Linux.
    _ = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  /// Receipts like the simulator's: one subscription renewing monthly plus one-time purchases,
  /// with ids that differ from receipt to receipt; even-numbered ones DER, odd ones BER.
  private static func makeCorpus(size: Int, purchasesPerReceipt: Int, indefinitePayloads: Bool)
    throws -> [[UInt8]]
  {
    let start = Timestamp(millisecondsSince1970: 1_577_836_800_000)  // 2020-01-01
    let end = Timestamp(millisecondsSince1970: 1_893_456_000_000)  // 2030-01-01
    let chain = try CertificateAuthorityChain.generate(
      .appStoreLike(
        notBefore: start.millisecondsSince1970, notAfter: end.millisecondsSince1970))
    let month = Timestamp.millisecondsPerDay * 30
    return try (0..<size).map { receiptIndex in
      let base = Int64(1_000_000_000_000_000) + Int64(receiptIndex) * 1_000
      let purchases = (0..<purchasesPerReceipt).map { index in
        let purchased = start.adding(milliseconds: month * Int64(index))
        let isRenewal = index % 5 != 4
        return InAppRecord(
          quantity: 1,
          productId: isRenewal ? "com.example.premium.monthly" : "com.example.coins.\(index)",
          transactionId: String(base + Int64(index)),
          originalTransactionId: String(isRenewal ? base : base + Int64(index)),
          purchaseDate: purchased, originalPurchaseDate: isRenewal ? start : purchased,
          expiresDate: isRenewal ? purchased.adding(milliseconds: month) : nil,
          webOrderLineItemId: isRenewal ? String(base + 500 + Int64(index)) : nil,
          isInIntroOfferPeriod: isRenewal ? index == 0 : nil)
      }
      let receipt = RawAppReceipt(
        receiptType: "Production", bundleId: "com.example.app", applicationVersion: "310",
        originalApplicationVersion: "1.0",
        creationDate: start.adding(milliseconds: month * Int64(purchasesPerReceipt)),
        inAppPurchases: purchases)
      let ber = indefinitePayloads || receiptIndex % 2 == 1
      let payload = try AppReceiptBuilder.payload(
        for: receipt, lengthForm: indefinitePayloads ? .indefinite : .definite)
      return try AppReceiptBuilder.sign(
        payload: payload, signer: chain.leaf, intermediates: [chain.intermediate.certificate],
        encoding: ber ? .indefiniteLengthBER : .der)
    }
  }
}
