import JSON

/// Why one record was rejected, before it becomes a ``QuarantinedRecord`` with a position.
struct RecordRejection: Error {
  var reason: QuarantineReason
  var detail: String

  init(_ reason: QuarantineReason, _ detail: String) {
    self.reason = reason
    self.detail = detail
  }

  /// Maps a decoding failure to its quarantine category, keeping the full sentence.
  init(_ error: LegacyDecodingError, context: String? = nil) {
    let prefix = context.map { $0 + "." } ?? ""
    let sentence = error.describe(unit: "record")
    let detail = error.path.isEmpty ? sentence : prefix + sentence
    switch error.kind {
    case .json(let json):
      switch json.kind {
      case .typeMismatch, .numberOutOfRange: self.init(.wrongType, detail)
      case .invalidUTF8: self.init(.invalidUTF8, detail)
      case .unexpectedEnd: self.init(.truncatedJSON, detail)
      default: self.init(.malformedJSON, detail)
      }
    case .unparsableDate: self.init(.unparsableDate, detail)
    case .missingField: self.init(.notAResponse, detail)
    }
  }

  init(_ error: JSONError, field: String? = nil) {
    self.init(LegacyDecodingError(.json(error), path: field.map { [$0] } ?? []))
  }
}
