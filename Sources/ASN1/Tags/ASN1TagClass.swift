/// The class of an ASN.1 tag: the two high bits of its identifier octet.
public enum ASN1TagClass: UInt8, Hashable, Sendable {
  /// Types defined by X.680 itself (INTEGER, SEQUENCE, ...).
  case universal = 0
  /// Types defined by one application or standard.
  case application = 1
  /// Tags that mean something only inside their enclosing type (`[0]`, `[1]`, ...).
  case contextSpecific = 2
  /// Types defined by one enterprise.
  case `private` = 3
}
