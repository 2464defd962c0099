extension String {
  /// The camel-case identifier as lower-case words joined by dashes: `maxRetries` gives
  /// `max-retries`, `maxHTTPRetries` gives `max-http-retries` and `ReceiptMigrate` gives
  /// `receipt-migrate`.
  func convertedToKebabCase() -> String {
    let characters = Array(self)
    var words: [String] = []
    var word = ""
    for (index, character) in characters.enumerated() {
      if character.isUppercase, let previous = word.last {
        // An upper-case letter starts a word after a lower-case letter or digit, and ends an
        // acronym when a lower-case letter follows it ("HTTPRetries" is "HTTP", "Retries").
        let nextIsLowercase = index + 1 < characters.count && characters[index + 1].isLowercase
        if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLowercase) {
          words.append(word)
          word = ""
        }
      }
      word.append(character)
    }
    if !word.isEmpty {
      words.append(word)
    }
    return words.map { $0.lowercased() }.joined(separator: "-")
  }
}
