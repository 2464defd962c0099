import JSON

/// Why a stored response could not be decoded, naming the field:
/// `receipt.in_app[3].expires_date_ms: expected a number or numeric string, found an object at byte 1234`.
public struct LegacyDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem it is.
  public enum Kind: Hashable, Sendable {
    /// The JSON itself is malformed, or a value has the wrong type.
    case json(JSONError)
    /// A date string that is none of the formats Apple used.
    case unparsableDate(String)
    /// A required field is absent; the associated text says what the document is missing.
    case missingField(String)
  }

  /// What went wrong.
  public var kind: Kind
  /// The field path, outermost first: `["receipt", "in_app", "[3]", "expires_date_ms"]`.
  public var path: [String]

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: what went wrong.
  ///   - path: the field path, outermost first.
  public init(_ kind: Kind, path: [String] = []) {
    self.kind = kind
    self.path = path
  }

  /// The path in dotted form, indices attached: `receipt.in_app[3].expires_date_ms`.
  public var fieldPath: String {
    var text = ""
    for component in path {
      if component.hasPrefix("[") || text.isEmpty {
        text += component
      } else {
        text += "." + component
      }
    }
    return text
  }

  /// The reason without the field, for grouping quarantined records.
  public var reason: String {
    switch kind {
    case .json(let error):
      switch error.kind {
      case .typeMismatch: return "wrong type"
      case .invalidUTF8: return "invalid UTF-8"
      case .unexpectedEnd: return "truncated JSON"
      case .emptyDocument: return "empty document"
      default: return "malformed JSON"
      }
    case .unparsableDate: return "unparsable date"
    case .missingField: return "missing field"
    }
  }

  /// The full sentence with the field and the position.
  public var description: String { describe(unit: nil) }

  /// The full sentence, naming what the byte offset counts from: `… at byte 15 of the line`.
  ///
  /// - Parameter unit: `line`, `file` or `record`; `nil` for a bare offset.
  /// - Returns: the sentence.
  public func describe(unit: String?) -> String {
    let detail: String
    switch kind {
    case .json(let error):
      detail = error.reason + " at byte \(error.offset)" + (unit.map { " of the \($0)" } ?? "")
    case .unparsableDate(let text): detail = "unparsable date '\(text.prefix(60))'"
    case .missingField(let what): detail = what
    }
    return path.isEmpty ? detail : "\(fieldPath): \(detail)"
  }

  /// The byte offset of the problem inside the document, when known.
  public var offset: Int? {
    if case .json(let error) = kind { return error.offset }
    return nil
  }

  /// The same error with a path component in front.
  func prefixed(_ component: String) -> LegacyDecodingError {
    var copy = self
    copy.path.insert(component, at: 0)
    return copy
  }
}
