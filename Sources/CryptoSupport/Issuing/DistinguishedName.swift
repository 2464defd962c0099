/// The subject or issuer name of a certificate to be issued.
public struct DistinguishedName: Sendable, Hashable {
  /// The attributes in encoding order, most general first (country, organization, ..., common
  /// name), which is the order certificates conventionally store them in.
  public var attributes: [Attribute]

  /// A name made of the given attributes, in encoding order.
  ///
  /// - Parameter attributes: The attributes, most general first.
  public init(_ attributes: [Attribute]) {
    self.attributes = attributes
  }

  /// A name from the usual attributes; absent ones are left out.
  ///
  /// - Parameters:
  ///   - commonName: `CN`, such as "Prod ECC Mac App Store and iTunes Store Receipt Signing".
  ///   - organizationalUnit: `OU`, such as "Apple Worldwide Developer Relations".
  ///   - organization: `O`, such as "Apple Inc.".
  ///   - country: `C`, a two-letter country code.
  public init(
    commonName: String, organizationalUnit: String? = nil, organization: String? = nil,
    country: String? = nil
  ) {
    var attributes: [Attribute] = []
    if let country { attributes.append(Attribute(type: "C", value: country)) }
    if let organization { attributes.append(Attribute(type: "O", value: organization)) }
    if let organizationalUnit {
      attributes.append(Attribute(type: "OU", value: organizationalUnit))
    }
    attributes.append(Attribute(type: "CN", value: commonName))
    self.attributes = attributes
  }
}
