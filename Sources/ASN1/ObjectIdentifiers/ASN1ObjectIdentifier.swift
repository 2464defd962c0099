/// An OBJECT IDENTIFIER such as `1.2.840.113549.1.7.2`.
public struct ASN1ObjectIdentifier: Hashable, Sendable, CustomStringConvertible {
  /// The arcs, first to last; there are at least two.
  public let arcs: [UInt64]

  /// Creates an identifier from its dotted form.
  ///
  /// - Parameter dotted: Decimal arcs separated by dots, such as `1.2.840.113549.1.7.2`.
  /// - Returns: `nil` unless the text has at least two arcs, the first is 0, 1 or 2, and the
  ///   second is below 40 when the first is 0 or 1 (the only identifiers BER can encode).
  public init?(_ dotted: String) {
    var arcs: [UInt64] = []
    for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
      guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let arc = UInt64(part)
      else { return nil }
      arcs.append(arc)
    }
    guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40,
      arcs[0] * 40 <= UInt64.max - arcs[1]
    else { return nil }
    self.arcs = arcs
  }

  /// Decodes the content octets of an OBJECT IDENTIFIER.
  ///
  /// - Parameter encodedContents: The contents, without tag and length.
  /// - Returns: `nil` if the octets are empty, end inside an arc, pad an arc with a leading
  ///   `0x80` group or hold an arc beyond 64 bits.
  public init?(encodedContents: some Collection<UInt8>) {
    var arcs: [UInt64] = []
    var value: UInt64 = 0
    var groups = 0
    for octet in encodedContents {
      if groups == 0 && octet == 0x80 { return nil }
      guard value <= UInt64.max >> 7 else { return nil }
      value = value << 7 | UInt64(octet & 0x7F)
      groups += 1
      guard octet & 0x80 == 0 else { continue }
      if arcs.isEmpty {
        // The first subidentifier packs two arcs: 40 * first + second.
        let first: UInt64 = value < 40 ? 0 : value < 80 ? 1 : 2
        arcs.append(first)
        arcs.append(value - first * 40)
      } else {
        arcs.append(value)
      }
      value = 0
      groups = 0
    }
    guard !arcs.isEmpty, groups == 0 else { return nil }
    self.arcs = arcs
  }

  /// The content octets of the identifier's encoding, without tag and length.
  public var encodedContents: [UInt8] {
    var octets: [UInt8] = []
    func append(_ arc: UInt64) {
      var groups: [UInt8] = [UInt8(arc & 0x7F)]
      var rest = arc >> 7
      while rest > 0 {
        groups.append(UInt8(rest & 0x7F) | 0x80)
        rest >>= 7
      }
      octets.append(contentsOf: groups.reversed())
    }
    append(arcs[0] * 40 + arcs[1])
    for arc in arcs.dropFirst(2) { append(arc) }
    return octets
  }

  /// The dotted form.
  public var description: String {
    arcs.map(String.init).joined(separator: ".")
  }
}
