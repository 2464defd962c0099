import Foundation
import JSON
import LegacyReceipts

/// What identifies a set of legacy inputs for "already ingested": every file that would be read,
/// with its size and modification time, and the reading options.
enum IngestFingerprint {
  static func compute(paths: [String], reader: LegacyInputReader.Options) -> String {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("format", reader.forcedFormat?.rawValue)
    writer.field("max_record_bytes", reader.maximumRecordBytes)
    writer.key("files")
    writer.beginArray()
    for file in LegacyInputReader(options: reader).discover(paths).files {
      let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
      let modified = (attributes?[.modificationDate] as? Date).map {
        Int64($0.timeIntervalSince1970 * 1000)
      }
      writer.beginObject()
      writer.field("path", file.path)
      writer.field("size", file.byteCount)
      writer.field("modified_ms", modified)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer.string
  }
}
