/// The names an option or flag answers to, such as `--db`, `-o` or both.
///
/// `.long` (the default) is the property name in kebab-case, `.short` its first letter;
/// combine names with an array literal: `name: [.customShort("o"), .long]`.
public struct NameSpecification: ExpressibleByArrayLiteral, Sendable {
  /// One name in a specification.
  public struct Element: Hashable, Sendable {
    enum Representation: Hashable, Sendable {
      case long
      case customLong(String)
      case short
      case customShort(Character)
    }

    let representation: Representation

    /// The property name in kebab-case after two dashes: `maxRetries` gives `--max-retries`.
    public static let long = Element(representation: .long)
    /// The first letter of the property name after one dash: `verbose` gives `-v`.
    public static let short = Element(representation: .short)

    /// A long name spelled out, without its dashes.
    ///
    /// - Parameter name: The name without dashes, such as `"db"` for `--db`.
    /// - Returns: The element.
    public static func customLong(_ name: String) -> Element {
      Element(representation: .customLong(name))
    }

    /// A one-letter name spelled out, without its dash.
    ///
    /// - Parameter character: The letter, such as `"o"` for `-o`.
    /// - Returns: The element.
    public static func customShort(_ character: Character) -> Element {
      Element(representation: .customShort(character))
    }
  }

  let elements: [Element]

  /// Creates a specification from its names.
  ///
  /// - Parameter elements: The names, in any order.
  public init(arrayLiteral elements: Element...) {
    self.elements = elements
  }

  /// The property name in kebab-case after two dashes.
  public static let long: NameSpecification = [.long]
  /// The first letter of the property name after one dash.
  public static let short: NameSpecification = [.short]
  /// Both the first letter after one dash and the kebab-case name after two.
  public static let shortAndLong: NameSpecification = [.short, .long]

  /// Only the given long name.
  ///
  /// - Parameter name: The name without dashes, such as `"db"` for `--db`.
  /// - Returns: The specification.
  public static func customLong(_ name: String) -> NameSpecification {
    [.customLong(name)]
  }

  /// Only the given one-letter name.
  ///
  /// - Parameter character: The letter, such as `"o"` for `-o`.
  /// - Returns: The specification.
  public static func customShort(_ character: Character) -> NameSpecification {
    [.customShort(character)]
  }

  /// The concrete names for the property at `key`.
  func names(for key: InputKey) -> [ArgumentName] {
    elements.compactMap { element in
      switch element.representation {
      case .long: return .long(key.name.convertedToKebabCase())
      case .customLong(let name): return .long(name)
      case .short: return key.name.first.map { .short($0) }
      case .customShort(let character): return .short(character)
      }
    }
  }
}
