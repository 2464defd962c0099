/// Converts one argument to an element of an option's value, and describes elements for help.
struct ArgumentValueParser<Element: Sendable>: Sendable {
  var parse: @Sendable (String) throws -> Element
  var describe: @Sendable (Element) -> String
  var allValues: [String]

  /// Converts through a `transform:` closure; what it throws becomes the reason in the error.
  static func transform(_ transform: @escaping @Sendable (String) throws -> Element) -> Self {
    Self(
      parse: { argument in
        do {
          return try transform(argument)
        } catch {
          throw InvalidArgumentValue(reason: error)
        }
      },
      describe: { String(describing: $0) },
      allValues: []
    )
  }
}

extension ArgumentValueParser where Element: ExpressibleByArgument {
  /// Converts through `init?(argument:)`.
  static var standard: Self {
    Self(
      parse: { argument in
        guard let value = Element(argument: argument) else {
          throw InvalidArgumentValue(reason: nil)
        }
        return value
      },
      describe: { $0.defaultValueDescription },
      allValues: Element.allValueStrings
    )
  }
}
