/// One element read by an ``ASN1Reader``: its tag and where its parts lie in the reader's bytes.
///
/// The indices are positions in ``ASN1Reader/bytes`` (for a slice, positions in the array it was
/// cut from), so an element is only meaningful together with the reader that returned it or one
/// of that reader's children; ``ASN1Reader/contents(of:)`` turns it into bytes without copying.
public struct ASN1Element: Hashable, Sendable {
  /// The element's tag.
  public let tag: ASN1Tag

  /// The index of the element's first identifier octet.
  public let startIndex: Int

  /// The indices of the content octets, without the end-of-contents marker of an
  /// indefinite-length element.
  public let contentRange: Range<Int>

  /// The index just past the element, including any end-of-contents marker.
  public let endIndex: Int

  /// Creates an element.
  ///
  /// - Parameters:
  ///   - tag: The element's tag.
  ///   - startIndex: The index of the first identifier octet.
  ///   - contentRange: The indices of the content octets.
  ///   - endIndex: The index just past the element.
  @inlinable
  public init(tag: ASN1Tag, startIndex: Int, contentRange: Range<Int>, endIndex: Int) {
    self.tag = tag
    self.startIndex = startIndex
    self.contentRange = contentRange
    self.endIndex = endIndex
  }

  /// Whether the element was encoded with an indefinite length (BER), ending in `00 00`.
  @inlinable public var hasIndefiniteLength: Bool { endIndex != contentRange.upperBound }
}
