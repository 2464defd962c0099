import AppStoreServerAPI
import AppStoreSimulator
import CryptoSupport
import Foundation
import TestDirectories
import Testing

@Suite("Simulator setup: a world directory and its signing material")
struct ServerSetupTests {
  /// A generated world's directory; pair it with
  /// `defer { TemporaryDirectory.remove(directory) }`.
  func worldDirectory() throws -> String {
    try TemporaryDirectory.make(prefix: "setup") { directory in
      let path = directory.path
      _ = try GeneratedArchive(world: WorldGenerator().generate(accounts: 5, seed: 2)).write(
        to: path)
      // `generate` creates the signing material (it signs the raw receipts); these tests start
      // from a world directory without it.
      try FileManager.default.removeItem(atPath: "\(path)/signing")
    }.path
  }

  @Test("the first start creates the chain and key; later starts load the same ones")
  func createThenLoad() throws {
    let directory = try worldDirectory()
    defer { TemporaryDirectory.remove(directory) }
    let first = try SimulatorSetup.prepare(worldDirectory: directory)
    #expect(first.createdSigningMaterial)
    #expect(first.rootCertificatePath == "\(directory)/signing/root.pem")
    #expect(
      first.chain.leaf.certificate.hasExtension(oid: AppleCertificateExtension.appStoreSigningLeaf))
    #expect(
      first.chain.intermediate.certificate.hasExtension(
        oid: AppleCertificateExtension.developerRelationsIntermediate))
    let keyPermissions =
      try FileManager.default.attributesOfItem(atPath: first.privateKeyPath)[.posixPermissions]
      as? NSNumber
    #expect(keyPermissions?.intValue == 0o600)

    let second = try SimulatorSetup.prepare(worldDirectory: directory)
    #expect(!second.createdSigningMaterial)
    #expect(second.chain.root.certificate == first.chain.root.certificate)
    #expect(second.testKey.privateKey.publicKey == first.testKey.privateKey.publicKey)
    #expect(second.testKey.keyId == first.testKey.keyId)
    #expect(second.testKey.bundleId == second.world.bundleId)
    let roots = try X509Certificate.certificates(contentsOfFile: second.rootCertificatePath)
    #expect(roots == [first.chain.root.certificate])
  }

  @Test("a missing world, or a chain that does not cover the world's clock, is refused with advice")
  func refusals() throws {
    #expect {
      _ = try SimulatorSetup.prepare(worldDirectory: "/nonexistent-\(UUID().uuidString)")
    } throws: { ($0 as? SimulatorSetupError)?.message.contains("simulator generate") == true }

    let directory = try worldDirectory()
    defer { TemporaryDirectory.remove(directory) }
    let setup = try SimulatorSetup.prepare(worldDirectory: directory)
    let expired = try CertificateAuthorityChain.generate(
      .appStoreLike(
        notBefore: setup.world.now.millisecondsSince1970 - 900 * 86_400_000,
        notAfter: setup.world.now.millisecondsSince1970 - 400 * 86_400_000))
    try expired.write(toDirectory: setup.signingDirectory)
    #expect {
      _ = try SimulatorSetup.prepare(worldDirectory: directory)
    } throws: { ($0 as? SimulatorSetupError)?.message.contains("delete") == true }
  }
}
