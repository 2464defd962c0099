/// What ``LegacyInputReader`` reports while it reads, in input order.
public enum LegacyInputEvent: Sendable {
  /// A file is about to be read.
  case fileStarted(path: String, format: LegacyInputFormat, byteCount: Int64)
  /// A record was accepted.
  case record(LegacyRecord)
  /// A record (or a whole file) was rejected; it counts as read and quarantined.
  case quarantined(QuarantinedRecord)
  /// A file found in a directory was not read because it is not an input format (a README,
  /// an image); it is not a record and counts nowhere.
  case skipped(path: String, reason: String)
  /// Bytes read so far across all files, reported about every megabyte for progress.
  case progress(bytesRead: Int64)
}
