/// A calendar day read by a `transform:` closure, whose error explains a bad value.
struct Day: Equatable, Sendable {
  struct Malformed: Error, CustomStringConvertible {
    var text: String
    var description: String { "'\(text)' is not a day as YYYY-MM-DD" }
  }

  var year: Int
  var month: Int
  var day: Int

  init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  init(parsing text: String) throws {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, text.count == 10 else { throw Malformed(text: text) }
    self.init(year: parts[0], month: parts[1], day: parts[2])
  }
}
