import ArgumentParsing

/// An enumeration read by raw value, listed in help and in errors.
enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
  case ndjson
  case csv
}
