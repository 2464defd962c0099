import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `world.json` opened to be served without being held in memory: read once from end to end at
/// open (every customer decoded, so a damaged file is refused before the server starts), then
/// each customer read back from its byte range when a request asks for it, through a small
/// cache. What stays in memory is a few bytes per customer — where each one lies in the file,
/// its environment, and the ids that cannot be computed back to their customer (none in a
/// generated world) — so a million-account world is served in tens of megabytes, not gigabytes.
///
/// The file stays open, so a world regenerated into the same folder (a new file renamed over
/// the old one) does not disturb the server; a file changed in place is detected when a
/// customer no longer decodes, and reported.
public final class WorldFile: Sendable {
  /// Where a customer lies in the file.
  private struct Span: Sendable {
    var offset: Int64
    var length: Int32
  }

  /// One lock's slots: a customer read recently, by position modulo the slot count.
  private final class Shard: Sendable {
    let slots = Mutex<[(position: Int, customer: Customer)?]>(
      Array(repeating: nil, count: WorldFile.slotsPerShard))
  }

  private static let shardCount = 16
  private static let slotsPerShard = 256

  /// The file's path.
  public let path: String
  /// The world without its customers and accounts: the clock, the app, the products.
  public let header: World
  /// How many customers the file holds.
  public let customerCount: Int
  /// How many accounts the file holds (not read: the server needs none).
  public let accountCount: Int
  /// Each customer's environment, or `nil` when the App Store has forgotten them.
  let environments: [SimulatedEnvironment?]
  /// Finds the customer owning an id.
  let index: CustomerIndex
  private let spans: [Span]
  private let descriptor: Int32
  private let shards: [Shard] = (0..<WorldFile.shardCount).map { _ in Shard() }

  /// Opens and reads through `world.json`.
  ///
  /// - Parameter path: the file.
  /// - Throws: ``WorldFileError`` when it cannot be read or is not a valid world.
  public convenience init(path: String) throws(WorldFileError) {
    try self.init(path: path, blockSize: 4 << 20)
  }

  /// Opens and reads through `world.json` in blocks of `blockSize` bytes (tests use tiny
  /// blocks, so that every kind of boundary falls between two of them).
  init(path: String, blockSize: Int) throws(WorldFileError) {
    self.path = path
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw WorldFileError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    var scanner = WorldFileScanner()
    var spans: [Span] = []
    var environments: [SimulatedEnvironment?] = []
    var index: CustomerIndex?
    var failure: String?
    var block = [UInt8](repeating: 0, count: max(1, blockSize))
    do {
      while true {
        let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
          if errno == EINTR { continue }
          failure = "cannot read \(path): \(String(cString: strerror(errno)))"
          break
        }
        if count == 0 { break }
        try block.withUnsafeBytes { buffer in
          try scanner.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
            bytes, offset in
            let customer = try WorldDecoder.decodeCustomer(bytes)
            // The first customer's app transaction id says where the numbering starts; the
            // header, read at the end, confirms it (else the index is made again below).
            if index == nil {
              index = CustomerIndex(
                identifierBase: IdentifierAllocator.customerNumber(
                  owning: customer.appTransactionId) ?? 0)
            }
            index?.add(customer)
            environments.append(customer.isForgotten ? nil : customer.environment)
            spans.append(Span(offset: offset, length: Int32(bytes.count)))
          }
        }
      }
      try scanner.finish()
    } catch {
      failure = "\(path) is not a valid world: \(error)"
    }
    if let failure {
      close(descriptor)
      throw WorldFileError(description: failure)
    }
    let header: World
    do {
      header = try WorldDecoder.decode(scanner.skeleton)
    } catch {
      close(descriptor)
      throw WorldFileError(description: "\(path) is not a valid world: \(error)")
    }
    var made = index ?? CustomerIndex(identifierBase: header.identifierBase)
    if made.identifierBase != header.identifierBase {
      // A world whose first customer's ids are not numbered from the header's base (written
      // by hand): index it again from the header.
      made = CustomerIndex(identifierBase: header.identifierBase)
      do {
        for span in spans { made.add(try Self.customer(span, from: descriptor, path: path)) }
      } catch {
        close(descriptor)
        throw error
      }
    }
    self.header = header
    self.descriptor = descriptor
    self.spans = spans
    self.environments = environments
    self.index = made
    customerCount = spans.count
    accountCount = scanner.accountCount
  }

  deinit {
    close(descriptor)
  }

  /// The customer at `position`, read back from the file (or the cache).
  ///
  /// - Parameter position: a position below ``customerCount``.
  /// - Throws: ``WorldFileError`` when the file changed since it was opened.
  public func customer(at position: Int) throws(WorldFileError) -> Customer {
    let shard = shards[position % Self.shardCount]
    let slot = (position / Self.shardCount) % Self.slotsPerShard
    if let hit = shard.slots.withLock({ $0[slot] }), hit.position == position {
      return hit.customer
    }
    let customer = try Self.customer(spans[position], from: descriptor, path: path)
    shard.slots.withLock { $0[slot] = (position, customer) }
    return customer
  }

  private static func customer(_ span: Span, from descriptor: Int32, path: String)
    throws(WorldFileError) -> Customer
  {
    var bytes = [UInt8](repeating: 0, count: Int(span.length))
    var done = 0
    while done < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(span.offset) + off_t(done))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        throw WorldFileError(
          description: "\(path) changed while it was served: a customer at byte \(span.offset) "
            + "cannot be read back; restart the simulator")
      }
      done += count
    }
    do {
      return try bytes.withUnsafeBytes { buffer throws(WorldDecoder.Failure) in
        try WorldDecoder.decodeCustomer(buffer)
      }
    } catch {
      throw WorldFileError(
        description: "\(path) changed while it was served: the customer at byte \(span.offset) "
          + "no longer decodes (\(error)); restart the simulator")
    }
  }
}
