/// The identifier of a BER/DER element: its class, its number and whether it is constructed.
///
/// The constructed bit is part of the tag on purpose: a primitive and a constructed OCTET STRING
/// are read differently, so comparing tags compares forms too.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
  /// The tag's class.
  public var tagClass: ASN1TagClass

  /// The tag's number within its class.
  public var number: UInt32

  /// Whether the element's contents are further elements rather than a value.
  public var isConstructed: Bool

  /// Creates a tag.
  ///
  /// - Parameters:
  ///   - tagClass: The tag's class.
  ///   - number: The tag's number within its class.
  ///   - isConstructed: Whether the contents are further elements.
  @inlinable
  public init(_ tagClass: ASN1TagClass, number: UInt32, isConstructed: Bool) {
    self.tagClass = tagClass
    self.number = number
    self.isConstructed = isConstructed
  }

  /// A context-specific tag such as `[0]`; constructed by default, as an EXPLICIT tag always is.
  ///
  /// - Parameters:
  ///   - number: The number in brackets.
  ///   - isConstructed: Whether the contents are further elements.
  /// - Returns: The tag.
  @inlinable
  public static func contextSpecific(_ number: UInt32, isConstructed: Bool = true) -> ASN1Tag {
    ASN1Tag(.contextSpecific, number: number, isConstructed: isConstructed)
  }

  /// The same tag in constructed form, as BER allows for strings split into segments.
  @inlinable public var constructed: ASN1Tag {
    ASN1Tag(tagClass, number: number, isConstructed: true)
  }

  // MARK: - Universal tags

  // Computed and inlinable rather than stored: a stored static is a lazily initialized global,
  // checked on every use from another module, and readers compare tags on every element.

  /// `BOOLEAN`
  @inlinable public static var boolean: ASN1Tag {
    ASN1Tag(.universal, number: 1, isConstructed: false)
  }
  /// `INTEGER`
  @inlinable public static var integer: ASN1Tag {
    ASN1Tag(.universal, number: 2, isConstructed: false)
  }
  /// `BIT STRING`
  @inlinable public static var bitString: ASN1Tag {
    ASN1Tag(.universal, number: 3, isConstructed: false)
  }
  /// `OCTET STRING`, primitive form.
  @inlinable public static var octetString: ASN1Tag {
    ASN1Tag(.universal, number: 4, isConstructed: false)
  }
  /// `NULL`
  @inlinable public static var null: ASN1Tag {
    ASN1Tag(.universal, number: 5, isConstructed: false)
  }
  /// `OBJECT IDENTIFIER`
  @inlinable public static var objectIdentifier: ASN1Tag {
    ASN1Tag(.universal, number: 6, isConstructed: false)
  }
  /// `UTF8String`, primitive form.
  @inlinable public static var utf8String: ASN1Tag {
    ASN1Tag(.universal, number: 12, isConstructed: false)
  }
  /// `SEQUENCE` and `SEQUENCE OF`.
  @inlinable public static var sequence: ASN1Tag {
    ASN1Tag(.universal, number: 16, isConstructed: true)
  }
  /// `SET` and `SET OF`.
  @inlinable public static var set: ASN1Tag {
    ASN1Tag(.universal, number: 17, isConstructed: true)
  }
  /// `PrintableString`, primitive form.
  @inlinable public static var printableString: ASN1Tag {
    ASN1Tag(.universal, number: 19, isConstructed: false)
  }
  /// `IA5String` (ASCII), primitive form.
  @inlinable public static var ia5String: ASN1Tag {
    ASN1Tag(.universal, number: 22, isConstructed: false)
  }

  /// Whether two tags have the same class, number and form.
  ///
  /// Written out, and inlinable, so that comparing tags compiles to three comparisons in the
  /// caller rather than a call.
  @inlinable
  public static func == (lhs: ASN1Tag, rhs: ASN1Tag) -> Bool {
    lhs.number == rhs.number && lhs.tagClass == rhs.tagClass
      && lhs.isConstructed == rhs.isConstructed
  }

  // MARK: - Description

  /// The tag as people write it: `SEQUENCE`, `OCTET STRING (constructed)`, `[0]`,
  /// `[APPLICATION 3] (primitive)`.
  public var description: String {
    let name: String
    let naturallyConstructed: Bool
    switch tagClass {
    case .universal:
      name = Self.universalNames[number] ?? "UNIVERSAL \(number)"
      naturallyConstructed = number == 16 || number == 17
    case .application:
      name = "[APPLICATION \(number)]"
      naturallyConstructed = true
    case .contextSpecific:
      name = "[\(number)]"
      naturallyConstructed = true
    case .private:
      name = "[PRIVATE \(number)]"
      naturallyConstructed = true
    }
    if isConstructed == naturallyConstructed { return name }
    return name + (isConstructed ? " (constructed)" : " (primitive)")
  }

  private static let universalNames: [UInt32: String] = [
    0: "end-of-contents", 1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING",
    5: "NULL", 6: "OBJECT IDENTIFIER", 10: "ENUMERATED", 12: "UTF8String", 16: "SEQUENCE",
    17: "SET", 19: "PrintableString", 22: "IA5String", 23: "UTCTime", 24: "GeneralizedTime",
  ]
}
