import ASN1

/// Reads every element of `bytes`, descending into constructed ones and decoding the primitive
/// values the reader knows, and describes the tree: `SEQUENCE{INTEGER 5,UTF8String "a"}`.
///
/// Two encodings of the same value (DER and indefinite-length BER) describe the same way.
func describeTree(_ bytes: [UInt8], maximumDepth: Int = ASN1Reader.defaultMaximumDepth)
  throws(ASN1Error) -> String
{
  var reader = ASN1Reader(bytes, maximumDepth: maximumDepth)
  return try describeElements(&reader)
}

private func describeElements(_ reader: inout ASN1Reader) throws(ASN1Error) -> String {
  var parts: [String] = []
  while let element = try reader.next() {
    parts.append(try describe(element, in: reader))
  }
  return parts.joined(separator: ",")
}

private func describe(_ element: ASN1Element, in reader: ASN1Reader) throws(ASN1Error) -> String {
  switch element.tag {
  case .integer:
    return "INTEGER \(try reader.integer(element))"
  case .objectIdentifier:
    return "OID \(try reader.objectIdentifier(element))"
  case .utf8String:
    return "UTF8String \"\(try reader.utf8String(element))\""
  case .ia5String:
    return "IA5String \"\(try reader.ia5String(element))\""
  case .octetString, ASN1Tag.octetString.constructed:
    return "OCTET STRING \(try reader.octetString(element).map { $0 }.hexText)"
  case .null:
    return "NULL"
  default:
    guard element.tag.isConstructed else {
      return "\(element.tag) \(reader.contents(of: element).map { $0 }.hexText)"
    }
    var children = try reader.children(of: element)
    return "\(element.tag){\(try describeElements(&children))}"
  }
}

extension [UInt8] {
  /// Lowercase hex without separators.
  var hexText: String {
    map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}
