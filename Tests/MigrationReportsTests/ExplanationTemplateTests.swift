import Testing

@testable import MigrationReports

/// Our own templating against hand-written explanations (a check of our code only).
@Suite("Explanation templates")
struct ExplanationTemplateTests {
  @Test(
    "dates, instants and numbers become placeholders; words and product ids stay",
    arguments: [
      (
        "com.example.pro.yearly was refunded on 2025-04-22; it changed after the snapshot of 2025-04-16",
        "com.example.pro.yearly was refunded on ‹date›; it changed after the snapshot of ‹date›"
      ),
      ("captured at 2025-04-16T11:25:38.322Z, before", "captured at ‹date›, before"),
      ("refunded 25% on 2024-06-05", "refunded ‹n›% on ‹date›"),
      ("2 of 3 id(s) could not be resolved", "‹n› of ‹n› id(s) could not be resolved"),
      ("the year 2025 alone", "the year ‹n› alone"),
      ("no digits at all", "no digits at all"),
    ])
  func template(text: String, expected: String) {
    #expect(ExplanationTemplate.of(text) == expected)
  }
}
