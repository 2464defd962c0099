import CryptoSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The secret salt that pseudonymises account ids in reports (`--redact`), kept in a file
/// beside the store (`<store>.redaction-salt`, mode 0600) so that the same account gets the same
/// pseudonym in every run of that store — nightly reports stay comparable — while nobody who
/// has only the reports can reverse them.
public enum RedactionSaltFile {
  /// The salt file of a store.
  ///
  /// - Parameter storePath: the store file.
  /// - Returns: `<store>.redaction-salt`.
  public static func path(forStore storePath: String) -> String {
    storePath + ".redaction-salt"
  }

  /// Reads the salt, creating the file with 32 random bytes (hexadecimal) the first time.
  ///
  /// - Parameter path: the salt file.
  /// - Returns: the salt.
  /// - Throws: ``Failure`` when the file cannot be created or read, or holds fewer than 32
  ///   characters.
  public static func loadOrCreate(at path: String) throws -> String {
    if !FileManager.default.fileExists(atPath: path) {
      try create(at: path)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "the redaction salt \(path) cannot be read; check its permissions")
    }
    let salt = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard salt.utf8.count >= 32 else {
      throw Failure(
        description:
          "the redaction salt \(path) holds \(salt.utf8.count) characters, fewer than 32; "
          + "delete it to make a new one (pseudonyms will change)")
    }
    return salt
  }

  /// Creates the file exclusively with mode 0600; losing a race to another process is fine.
  private static func create(at path: String) throws {
    let salt: [UInt8]
    do {
      salt = try SecureRandom.bytes(count: 32)
    } catch {
      throw Failure(description: "cannot draw a random redaction salt: \(error)")
    }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == EEXIST { return }
      throw Failure(
        description: "cannot create the redaction salt \(path): \(String(cString: strerror(errno)))"
      )
    }
    defer { close(descriptor) }
    let text = Array((Hex.encode(salt) + "\n").utf8)
    let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == text.count else {
      throw Failure(description: "cannot write the redaction salt \(path)")
    }
  }

  /// Why the salt cannot be used.
  public struct Failure: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String
  }
}
