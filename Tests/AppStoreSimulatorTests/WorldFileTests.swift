import Chronology
import Foundation
import Testing

@testable import AppStoreSimulator

/// `simulator serve` reads customers back from `world.json` as requests ask instead of holding
/// the world. These tests hold the file-backed world to the world decoded whole, and the
/// server's lookups to a table of every id — the index the server used before (checks against
/// our own code: the whole-world decoder is the reference).
@Suite("World served from its file")
struct WorldFileTests {
  private static let world: World = {
    var configuration = GeneratorConfiguration()
    configuration.daysAfter = 30
    return WorldGenerator(configuration: configuration).generate(accounts: 400, seed: 17)
  }()

  private func file(for world: World, blockSize: Int = 4 << 20) throws -> WorldFile {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "world-file-\(UUID().uuidString).json"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(WorldEncoder.encode(world)).write(to: URL(fileURLWithPath: path))
    // Opened before the file is removed: the server keeps reading an open file.
    return try WorldFile(path: path, blockSize: blockSize)
  }

  @Test("every customer, the header and the counts come back as the whole world holds them")
  func customersComeBack() throws {
    let world = Self.world
    let file = try file(for: world)
    #expect(file.customerCount == world.customers.count)
    #expect(file.accountCount == world.accounts.count)
    var header = world
    header.customers = []
    header.accounts = []
    #expect(file.header == header)
    for position in world.customers.indices {
      #expect(try file.customer(at: position) == world.customers[position])
    }
    // Again, now partly from the cache, in another order.
    for position in world.customers.indices.reversed() {
      #expect(try file.customer(at: position) == world.customers[position])
    }
  }

  @Test(
    "blocks of any size give the same world: boundaries inside strings, escapes and customers",
    arguments: [1, 2, 13, 4_096])
  func blockBoundaries(blockSize: Int) throws {
    var world = WorldGenerator().generate(accounts: 25, seed: 4)
    world.customers[3].story.append("a quote \" a backslash \\ and } ] { [ inside a string")
    let file = try file(for: world, blockSize: blockSize)
    #expect(file.customerCount == world.customers.count)
    #expect(file.accountCount == world.accounts.count)
    for position in world.customers.indices {
      #expect(try file.customer(at: position) == world.customers[position])
    }
  }

  @Test("the state finds the owner of every id as a table of every id did, from memory or the file")
  func lookupsMatchTable() throws {
    let world = Self.world
    let file = try file(for: world)
    let clocks = [world.now, world.latestClock, world.now.adding(milliseconds: -90 * 86_400_000)]
    for clock in clocks {
      let memory = SimulatorState(world: world, clock: clock)
      let served = SimulatorState(world: file.header, file: file, clock: clock)
      var table: [String: Int] = [:]
      var ids: [String] = ["1", "2000000000000000", "704000000000000008", "not-an-id"]
      for (position, customer) in world.customers.enumerated() {
        table[customer.appTransactionId] = position
        ids.append(customer.appTransactionId)
        for transaction in customer.transactions {
          ids += [transaction.transactionId, transaction.originalTransactionId]
          if transaction.purchaseDate <= clock {
            table[transaction.transactionId] = position
            table[transaction.originalTransactionId] = position
          }
        }
      }
      for id in ids {
        #expect(try memory.customerPosition(owning: id) == table[id], "\(id) at \(clock)")
        #expect(try served.customerPosition(owning: id) == table[id], "\(id) at \(clock)")
      }
      for position in world.customers.indices {
        #expect(
          try served.snapshot(of: position).customer == memory.snapshot(of: position).customer)
        for environment in [SimulatedEnvironment.production, .sandbox] {
          #expect(
            served.isKnown(position, in: environment) == memory.isKnown(position, in: environment))
        }
      }
    }
  }

  @Test("ids not derived from their customer's number (a world edited by hand) are found too")
  func handMadeIds() throws {
    var world = WorldGenerator().generate(accounts: 30, seed: 9)
    let position = try #require(
      world.customers.indices.dropFirst().first { world.customers[$0].transactions.count >= 2 })
    world.customers[position].appTransactionId = "123"
    for offset in world.customers[position].transactions.indices {
      world.customers[position].transactions[offset].transactionId = "77700\(offset)"
      world.customers[position].transactions[offset].originalTransactionId = "777000"
    }
    // Another customer's id, claimed by a later customer too: the later one owns it.
    let taken = world.customers[0].appTransactionId
    world.customers[world.customers.count - 1].appTransactionId = taken
    let file = try file(for: world)
    for state in [
      SimulatorState(world: world), SimulatorState(world: file.header, file: file),
    ] {
      #expect(try state.customerPosition(owning: "123") == position)
      #expect(try state.customerPosition(owning: "777000") == position)
      #expect(try state.customerPosition(owning: "777001") == position)
      #expect(try state.customerPosition(owning: taken) == world.customers.count - 1)
    }
  }

  @Test("a damaged file is refused with the reason; nothing crashes on any truncation")
  func damagedFiles() throws {
    let bytes = WorldEncoder.encode(WorldGenerator().generate(accounts: 6, seed: 2))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "damaged-\(UUID().uuidString).json"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    func open(_ content: [UInt8]) -> String? {
      try? Data(content).write(to: URL(fileURLWithPath: path))
      do {
        _ = try WorldFile(path: path, blockSize: 64)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(open(bytes) == nil)
    let notObject = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
      of: "\"customers\":[\n", with: "\"customers\":[\n7,\n")
    #expect(open(Array(notObject.utf8))?.contains("is not an object") == true)
    #expect(open(Array(bytes.prefix(bytes.count / 2)))?.contains("ends inside") == true)
    #expect(open(Array("]".utf8))?.contains("unbalanced") == true)
    // Every prefix of the file either opens (only the whole file does) or is refused.
    for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 500)) {
      #expect(open(Array(bytes.prefix(length))) != nil, "a prefix of \(length) bytes opened")
    }
    #expect(open([]) != nil)
    #expect(WorldFileTests.missing().contains("cannot open"))
  }

  private static func missing() -> String {
    do {
      _ = try WorldFile(path: "/nonexistent/world.json")
      return ""
    } catch {
      return error.description
    }
  }

  @Test("a file changed in place while served: 5000000 naming the reason, not a crash")
  func changedWhileServed() throws {
    let world = WorldGenerator().generate(accounts: 30, seed: 5)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "changed-\(UUID().uuidString).json"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bytes = WorldEncoder.encode(world)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let file = try WorldFile(path: path)
    // Overwrite the same file (same inode) with spaces: every customer's bytes change.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: Data(repeating: 0x20, count: bytes.count))
    try handle.close()
    let state = SimulatorState(world: file.header, file: file)
    #expect(throws: WorldFileError.self) { try file.customer(at: 1) }
    #expect(throws: WorldFileError.self) { try state.snapshot(of: 2) }
    let id = world.customers[3].appTransactionId
    do {
      _ = try state.customerPosition(owning: id)
      Issue.record("a changed file was read")
    } catch {
      #expect(error.description.contains("changed while it was served"))
    }
  }
}
