import Testing

@testable import ArgumentParsing

@Suite("Wrapping help text")
struct TextWrapperTests {
  @Test("Words move to the next line, indented, when the line is full")
  func wrapsAtWidth() {
    let wrapped = TextWrapper.wrap(
      "one two three four five", width: 16, firstLine: "  -x  ", indent: 6)
    #expect(wrapped == "  -x  one two\n      three four\n      five")
  }

  @Test("Line breaks start new paragraphs and blank lines carry no spaces")
  func keepsParagraphs() {
    let wrapped = TextWrapper.wrap("first\n\nsecond", width: 40, indent: 4)
    #expect(wrapped == "first\n\n    second")
  }

  @Test("A word wider than the line gets a line of its own, unsplit")
  func longWord() {
    let wrapped = TextWrapper.wrap("a abcdefghijklmnop b", width: 8)
    #expect(wrapped == "a\nabcdefghijklmnop\nb")
  }
}
