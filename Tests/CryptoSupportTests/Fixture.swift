import Foundation
import Testing

/// Access to the files in `Fixtures/` (see its README for how each was made).
enum Fixture {
  /// The absolute path of a fixture file.
  static func path(_ name: String) throws -> String {
    let directory = try #require(
      Bundle.module.path(forResource: "Fixtures", ofType: nil), "the Fixtures resource is missing")
    return "\(directory)/\(name)"
  }

  /// The bytes of a fixture file.
  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
  }

  /// The text of a fixture file.
  static func text(_ name: String) throws -> String {
    String(decoding: try bytes(name), as: UTF8.self)
  }

  /// Fixed instants, so that no test depends on the wall clock.
  enum Instant {
    static let day: Int64 = 86_400_000
    /// 2024-01-01T00:00:00Z.
    static let start: Int64 = 1_704_067_200_000
    /// One year after ``start``.
    static let end: Int64 = start + 366 * day
  }
}

/// Asserts that `text` contains no run of the PEM body or DER of a key (base64 or hex).
func expectNoKeyMaterial(
  in text: String, keyPEM: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let body = keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") && !$0.contains(":") }
    .joined()
  let der = Data(base64Encoded: body).map { [UInt8]($0) } ?? []
  let hex = der.map { String(format: "%02x", $0) }.joined()
  let lowered = text.lowercased()
  let window = 12
  for start in stride(from: 0, to: max(0, body.count - window), by: 4) {
    let piece = String(Array(body)[start..<start + window])
    #expect(!text.contains(piece), "key base64 leaked: \(piece)", sourceLocation: sourceLocation)
  }
  for start in stride(from: 0, to: max(0, hex.count - 16), by: 8) {
    let piece = String(Array(hex)[start..<start + 16])
    #expect(!lowered.contains(piece), "key hex leaked: \(piece)", sourceLocation: sourceLocation)
  }
}
