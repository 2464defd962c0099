/// Finds the customers in `world.json` without holding the file: fed the file block by block,
/// it follows just enough of the JSON structure (strings, nesting, the top-level keys) to hand
/// out each element of the top-level `customers` array with its byte range, count the elements
/// of `accounts`, and keep everything else — the header and the products, a few kilobytes — as
/// a *skeleton*: the document with both arrays emptied, for ``WorldDecoder`` to read.
///
/// It checks only the structure it follows (an element that is not an object, unbalanced
/// nesting); each customer's own content is checked by the decoder it is handed to.
struct WorldFileScanner {
  /// Why the file's structure cannot be followed.
  struct Failure: Error, CustomStringConvertible {
    /// What, and at which byte.
    var description: String
  }

  private enum Section { case customers, accounts }

  private static let customersKey = Array("customers".utf8)
  private static let accountsKey = Array("accounts".utf8)

  /// The document with `customers` and `accounts` emptied.
  private(set) var skeleton: [UInt8] = []
  /// How many accounts the file holds.
  private(set) var accountCount = 0

  private var depth = 0
  private var inString = false
  private var escaped = false
  /// The last string read at depth 1, and whether it is being read now (keys are short: only
  /// the first bytes are kept).
  private var lastString: [UInt8] = []
  private var capturing = false
  private var key: [UInt8] = []
  private var section: Section?
  /// The current customer's bytes so far, when it spans blocks.
  private var element: [UInt8] = []
  private var elementStart: Int64 = -1
  private var offset: Int64 = 0

  /// Reads the next block of the file.
  ///
  /// - Parameters:
  ///   - block: the bytes following the previous block.
  ///   - customer: called with each customer's bytes and their offset in the file.
  /// - Throws: ``Failure`` when the structure is not a world's, or what `customer` throws.
  mutating func feed(
    _ block: UnsafeRawBufferPointer, customer: (UnsafeRawBufferPointer, Int64) throws -> Void
  ) throws {
    let bytes = block.bindMemory(to: UInt8.self)
    var runStart = section == nil ? 0 : -1
    var elementRunStart = elementStart >= 0 && section == .customers ? 0 : -1
    for index in 0..<bytes.count {
      let byte = bytes[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          capturing = false
        } else if capturing && lastString.count < 16 {
          lastString.append(byte)
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        if depth == 2, let section {
          throw Failure(
            description:
              "an element of \(section) at byte \(offset + Int64(index)) is not an object")
        }
        inString = true
        if depth == 1 {
          capturing = true
          lastString.removeAll(keepingCapacity: true)
        }
      case UInt8(ascii: ":"):
        if depth == 1 { key = lastString }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        if depth == 1, byte == UInt8(ascii: "["), section == nil {
          if key == Self.customersKey {
            section = .customers
          } else if key == Self.accountsKey {
            section = .accounts
          }
          if section != nil {
            // Keep the `[`, drop the contents.
            skeleton.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...index]))
            runStart = -1
          }
        } else if depth == 2, let section {
          guard byte == UInt8(ascii: "{") else {
            throw Failure(
              description:
                "an element of \(section) at byte \(offset + Int64(index)) is not an object")
          }
          elementStart = offset + Int64(index)
          elementRunStart = section == .customers ? index : -1
          element.removeAll(keepingCapacity: true)
        }
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        guard depth >= 0 else {
          throw Failure(
            description:
              "unbalanced \(Character(UnicodeScalar(byte))) at byte \(offset + Int64(index))")
        }
        if depth == 2, let section, byte == UInt8(ascii: "}") {
          if section == .customers {
            let run = UnsafeRawBufferPointer(rebasing: block[elementRunStart...index])
            if element.isEmpty {
              try customer(run, elementStart)
            } else {
              element.append(contentsOf: run)
              try element.withUnsafeBytes { try customer($0, elementStart) }
            }
          } else {
            accountCount += 1
          }
          elementStart = -1
          elementRunStart = -1
          element.removeAll(keepingCapacity: true)
        } else if depth == 1, section != nil {
          section = nil
          runStart = index
        }
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"),
        UInt8(ascii: ","):
        break
      default:
        if depth == 2, let section {
          throw Failure(
            description:
              "an element of \(section) at byte \(offset + Int64(index)) is not an object")
        }
      }
    }
    if runStart >= 0 {
      skeleton.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    if elementRunStart >= 0 {
      element.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[elementRunStart...]))
    }
    offset += Int64(bytes.count)
  }

  /// Checks that the document ended where its structure did.
  ///
  /// - Throws: ``Failure`` when it stopped inside a string or an object.
  func finish() throws {
    guard depth == 0, !inString else {
      throw Failure(
        description:
          "the file ends inside \(inString ? "a string" : "an object or array") at byte \(offset)")
    }
  }
}
