import Testing

@testable import MigrationReports

/// Nothing in a comparison holds `latest_receipt`, keys or tokens, and no report file must
/// either: a base64 run this long would be a receipt, a key or a signed value.
@Suite("Secrets")
struct SecretScanTests {
  static let longestAllowedRun = 200

  /// The longest run of base64 characters (`A–Z a–z 0–9 + / = - _`) in the text.
  static func longestBase64Run(_ text: String) -> Int {
    var longest = 0
    var current = 0
    for byte in text.utf8 {
      let isBase64 =
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || [
          UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"),
          UInt8(ascii: "_"),
        ]
        .contains(byte)
      current = isBase64 ? current + 1 : 0
      longest = max(longest, current)
    }
    return longest
  }

  @Test("the scanner finds a receipt-sized base64 run")
  func scannerWorks() {
    let receipt = String(repeating: "MIIT", count: 60)
    #expect(Self.longestBase64Run("before \(receipt) after") == 240)
    #expect(Self.longestBase64Run("short words only") == 5)
  }

  @Test(
    "no report file holds a base64 run longer than 200 characters", arguments: Scenario.allCases)
  func noLongBase64(scenario: Scenario) {
    for file in scenario.render() {
      #expect(
        Self.longestBase64Run(file.text) <= Self.longestAllowedRun,
        "\(file.name) holds a base64 run of \(Self.longestBase64Run(file.text)) characters")
    }
    for comparison in scenario.comparisons {
      let text = ExplainRenderer.render(comparison, asOf: SampleWorld.asOf)
      #expect(Self.longestBase64Run(text) <= Self.longestAllowedRun)
    }
  }
}
