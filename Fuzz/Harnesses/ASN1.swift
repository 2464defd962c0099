// libFuzzer harness for the BER/DER reader (Sources/ASN1).
//
// The input is read as an untrusted BER encoding: every element is walked, every primitive value
// is decoded with each decoder the reader offers, and every OCTET STRING is also read as the
// encoding it may carry, as PKCS#7 and app receipts nest theirs. Errors are expected verdicts;
// only crashes, hangs and broken invariants (checked with `invariant`) are findings.

import ASN1

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var walk = TreeWalk()
  var reader = ASN1Reader(bytes)
  walk.visit(&reader)
  return 0
}

/// One walk over an input, with a budget: encapsulated encodings are read again from their
/// octets, and the budget keeps a crafted input from turning that into exponential work — a
/// hang of the harness, not of the reader.
struct TreeWalk {
  /// Elements left to visit.
  var budget = 20_000

  /// Visits every element of `reader`'s container, then checks that the container is finished.
  mutating func visit(_ reader: inout ASN1Reader) {
    let limit = reader.limit
    while budget > 0 {
      budget -= 1
      let before = reader.position
      let element: ASN1Element?
      do {
        element = try reader.next()
      } catch {
        // A malformed header ends this container; the error must say where and what.
        invariant(
          !error.description.isEmpty && error.offset >= 0, "\(error) has no description or offset")
        return
      }
      guard let element else { break }
      checkBounds(element, start: before, limit: limit, reader: reader)
      visitElement(element, in: &reader)
    }
    if budget > 0 {
      do {
        try reader.finish()
      } catch {
        invariant(false, "finish() failed after next() returned nil: \(error)")
      }
    }
  }

  /// The element's parts lie in order inside its container, and the reader moved past it.
  func checkBounds(_ element: ASN1Element, start: Int, limit: Int, reader: ASN1Reader) {
    invariant(element.startIndex == start, "element does not start at the reader's position")
    invariant(element.startIndex < element.contentRange.lowerBound, "no header")
    invariant(element.contentRange.upperBound <= element.endIndex, "contents past the end")
    invariant(element.endIndex <= limit, "element overruns its container")
    invariant(reader.position == element.endIndex, "reader did not move past the element")
    // The fast header path must agree with the general one wherever it accepts a header.
    if let (_, contents) = ASN1Reader.commonShape(in: reader.bytes, at: start, limit: limit) {
      invariant(contents == element.contentRange, "commonShape disagrees with next()")
    }
  }

  /// Decodes a primitive element every way the reader can, or descends into a constructed one.
  mutating func visitElement(_ element: ASN1Element, in reader: inout ASN1Reader) {
    if element.tag.isConstructed {
      visitChildren(of: element, in: &reader)
    } else {
      decodeValues(element, in: reader)
    }
    if element.tag == .octetString || element.tag == ASN1Tag.octetString.constructed {
      visitEncapsulated(element, in: reader)
    }
  }

  /// Walks the children twice — with a child reader and in place — and compares the counts.
  mutating func visitChildren(of element: ASN1Element, in reader: inout ASN1Reader) {
    var children: ASN1Reader
    do {
      children = try reader.children(of: element)
    } catch {
      invariant(!error.description.isEmpty, "an error without a description")
      return
    }
    var counted = 0
    while (try? children.next()) != nil, counted < 64 { counted += 1 }
    var inPlace = 0
    _ = try? reader.withChildren(of: element) { inner throws(ASN1Error) in
      while try inner.next() != nil, inPlace < 64 { inPlace += 1 }
    }
    invariant(counted == inPlace, "children(of:) and withChildren(of:) disagree")
    children = (try? reader.children(of: element)) ?? children
    visit(&children)
  }

  /// Every value decoder on one primitive element; each may refuse it.
  func decodeValues(_ element: ASN1Element, in reader: ASN1Reader) {
    _ = try? reader.integer(element)
    if let identifier = try? reader.objectIdentifier(element) {
      // Decoding refuses padded arcs, so encoding the arcs again gives back the same octets.
      invariant(
        identifier.encodedContents.elementsEqual(reader.contents(of: element)),
        "OBJECT IDENTIFIER \(identifier) does not encode back to its octets")
      invariant(
        ASN1ObjectIdentifier(identifier.description) == identifier,
        "OBJECT IDENTIFIER \(identifier) does not survive its dotted form")
    }
    _ = try? reader.utf8String(element)
    _ = try? reader.ia5String(element)
    _ = try? reader.ia5Octets(element)
  }

  /// Reads the encoding an OCTET STRING may carry, both ways the reader offers.
  mutating func visitEncapsulated(_ element: ASN1Element, in reader: ASN1Reader) {
    guard var inner = try? reader.encapsulated(in: element) else { return }
    visit(&inner)
    var copy = reader
    _ = try? copy.withEncapsulated(in: element) { nested throws(ASN1Error) in
      _ = try nested.next()
    }
  }
}
