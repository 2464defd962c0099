/// One file of a report, rendered in memory.
public struct ReportFile: Hashable, Sendable {
  /// The file's name inside the run's folder: `report.html`.
  public var name: String
  /// Its contents.
  public var bytes: [UInt8]

  /// Creates a rendered file.
  ///
  /// - Parameters:
  ///   - name: the file's name inside the run's folder.
  ///   - bytes: its contents.
  public init(name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = bytes
  }

  /// The contents as text (every report file is UTF-8).
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}
