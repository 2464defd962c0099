import AppStoreSimulator
import Foundation
import TestDirectories
import Testing

/// `simulator generate` writes a world part by part so a million accounts never sit in memory;
/// these tests hold that to the whole world's bytes. (A check against our own code: the whole
/// world's writer is the reference.)
@Suite("World written in parts")
struct WorldPartsTests {
  @Test(
    "parts of 97 accounts write the whole world's files byte for byte, timeline past the clock included",
    arguments: [0, 45])
  func partsEqualWhole(daysAfter: Int) throws {
    var configuration = GeneratorConfiguration()
    configuration.daysAfter = daysAfter
    let generator = WorldGenerator(configuration: configuration)
    let whole = try WorldGenerationTests().directoryContents(
      generator.generate(accounts: 1_200, seed: 21))

    let directory = try TemporaryDirectory.make(prefix: "parts")
    defer { TemporaryDirectory.remove(directory) }
    let writer = try ArchiveWriter(directory: directory.path)
    var sizes: [Int] = []
    try generator.generate(accounts: 1_200, seed: 21, inPartsOf: 97) { part in
      sizes.append(part.accounts.count)
      _ = try writer.append(part)
    }
    try writer.finish()
    let parts = try WorldGenerationTests().directoryContents(of: directory)

    #expect(sizes.count >= 12 && sizes.reduce(0, +) == 1_200)
    // A part ends only between draws, so one may end past 97 (a family, a shared Apple Account).
    #expect(sizes.dropLast().allSatisfy { $0 >= 97 && $0 <= 100 })
    #expect(parts.keys.sorted() == whole.keys.sorted())
    for name in whole.keys.sorted() {
      let mine = String(decoding: parts[name] ?? Data(), as: UTF8.self).split(separator: "\n")
      let theirs = String(decoding: whole[name] ?? Data(), as: UTF8.self).split(separator: "\n")
      let first = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }
      #expect(
        parts[name] == whole[name],
        "\(name) differs first at line \(first.map { $0.offset + 1 } ?? min(mine.count, theirs.count)): \(first.map { "\($0.element.0)\n  whole: \($0.element.1)" } ?? "")"
      )
    }
    let hidden = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasPrefix(".")
    }
    #expect(hidden.isEmpty, "temporary files left behind: \(hidden)")
  }

  @Test("a writer never finished leaves the folder's earlier files as they were")
  func unfinishedWriterKeepsOldFiles() throws {
    let directory = try TemporaryDirectory.make(prefix: "unfinished")
    defer { TemporaryDirectory.remove(directory) }
    let world = WorldGenerator().generate(accounts: 40, seed: 3)
    try GeneratedArchive(world: world).write(to: directory.path)
    let before = try Data(contentsOf: directory.appendingPathComponent("world.json"))
    do {
      let writer = try ArchiveWriter(directory: directory.path)
      _ = try writer.append(WorldGenerator().generate(accounts: 80, seed: 4))
    }
    #expect(try Data(contentsOf: directory.appendingPathComponent("world.json")) == before)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasPrefix(".")
    }
    #expect(left.isEmpty, "temporary files left behind: \(left)")
  }
}
