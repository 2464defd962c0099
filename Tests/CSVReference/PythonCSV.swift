import Foundation

/// Python's `csv` module (standard library, `excel` dialect: `,`, `"`, `""` for a quote inside
/// a quoted field, line breaks allowed inside one) as a judge of how this project splits CSV:
/// code nobody here wrote.
public enum PythonCSV {
  /// The `python3` on `PATH` (or `RECEIPT_MIGRATE_PYTHON`), or `nil` when there is none.
  public static let interpreter: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let named = environment["RECEIPT_MIGRATE_PYTHON"] { return named }
    for directory in (environment["PATH"] ?? "/usr/bin").split(separator: ":") {
      let candidate = "\(directory)/python3"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// What a test says when it cannot run.
  public static let missingMessage =
    "SKIPPED: no python3 on PATH, so CSV splitting was NOT checked against Python's csv module"

  /// Why Python could not read a file.
  public struct Failure: Error, CustomStringConvertible {
    /// Python's exit status and what it printed.
    public var description: String
  }

  /// The rows Python's `csv.reader` reads from the file, every field as a string.
  ///
  /// - Parameter path: a UTF-8 CSV file.
  /// - Returns: the rows, in file order.
  /// - Throws: ``Failure`` when Python is missing or fails; an error of Foundation's when its
  ///   output is not the JSON expected.
  public static func rows(ofFileAt path: String) throws -> [[String]] {
    // ASCII-only JSON (\u escapes): the scalars arrive exactly as Python read them.
    let script =
      "import csv, json, sys\n"
      + "with open(sys.argv[1], newline='', encoding='utf-8') as f:\n"
      + "    json.dump(list(csv.reader(f)), sys.stdout)\n"
    guard let rows = try json(ofScript: script, arguments: [path]) as? [[String]] else {
      throw Failure(description: "python3 printed no list of rows of strings")
    }
    return rows
  }

  /// The first two columns of every data row (the header skipped), as bytes: what the judged
  /// readers are compared on.
  ///
  /// - Parameters:
  ///   - path: a UTF-8 CSV file with a header.
  ///   - trimmingSpaces: whether spaces and tabs come off each field's ends, as the judged
  ///     readers trim them.
  /// - Returns: one `[first, second]` pair of byte arrays per row.
  /// - Throws: as ``rows(ofFileAt:)``.
  public static func leadingPairs(ofFileAt path: String, trimmingSpaces: Bool = false) throws
    -> [[[UInt8]]]
  {
    try rows(ofFileAt: path).dropFirst().map { row in
      row.prefix(2).map { field in
        // The judged readers trim a field's white space, which Python keeps: for fields whose
        // ends hold only spaces and tabs, trimming those compares like with like.
        var bytes = Array(field.utf8)[...]
        guard trimmingSpaces else { return Array(bytes) }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        return Array(bytes)
      }
    }
  }

  /// The first row where our reading and Python's differ, described for a failure message;
  /// `nil` when the two are the same row for row.
  ///
  /// - Parameters:
  ///   - ours: the rows as this project read them, as bytes.
  ///   - theirs: the rows as Python read them, as bytes.
  /// - Returns: the difference, or `nil`.
  public static func firstDifference(ours: [[[UInt8]]], theirs: [[[UInt8]]]) -> String? {
    func shown(_ row: [[UInt8]]) -> String {
      "\(row.map { String(decoding: $0, as: UTF8.self).debugDescription })"
    }
    if let index = zip(ours, theirs).enumerated().first(where: { $0.element.0 != $0.element.1 })?
      .offset
    {
      return "data row \(index + 1): ours \(shown(ours[index])), Python's \(shown(theirs[index]))"
    }
    guard ours.count == theirs.count else {
      return "we read \(ours.count) rows, Python \(theirs.count)"
    }
    return nil
  }

  /// What a Python script prints as JSON on its standard output, decoded by Foundation.
  ///
  /// - Parameters:
  ///   - script: the program, run with `python3 -c`.
  ///   - arguments: its `sys.argv[1...]`.
  /// - Returns: the decoded value.
  /// - Throws: ``Failure`` when Python is missing or fails; an error of Foundation's when its
  ///   output is not JSON.
  public static func json(ofScript script: String, arguments: [String]) throws -> Any {
    guard let interpreter else { throw Failure(description: missingMessage) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: interpreter)
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(
        description: "python3 exited with \(process.terminationStatus): "
          + String(decoding: message, as: UTF8.self))
    }
    return try JSONSerialization.jsonObject(with: data)
  }
}
