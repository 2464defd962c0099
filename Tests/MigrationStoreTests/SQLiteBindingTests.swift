import Foundation
import MigrationStore
import Testing

@Suite("Binding values and reading columns")
struct SQLiteBindingTests {
  /// A table without column types, so each value keeps exactly the storage class it was bound as.
  private func makeDatabase() throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(location: .memory)
    try database.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, value)")
    return database
  }

  /// Stores one value and returns the row it landed in.
  private func store(_ value: some SQLiteBindable, in database: SQLiteDatabase) throws -> Int64 {
    try database.run("INSERT INTO v (value) VALUES (?)", binding: value)
    return try database.lastInsertRowID
  }

  private func read<Result>(
    _ id: Int64, from database: SQLiteDatabase, _ decode: (SQLiteRow) throws -> Result
  ) throws -> Result? {
    try database.firstRow("SELECT value FROM v WHERE id = ?", binding: id, decode: decode)
  }

  // MARK: - Round trips

  @Test(
    "64-bit integers round-trip exactly, extremes included",
    arguments: [
      Int64.min, Int64.min + 1, -1, 0, 1, 9_007_199_254_740_993, Int64.max,
    ])
  func int64RoundTrip(value: Int64) throws {
    let database = try makeDatabase()
    let id = try store(value, in: database)
    #expect(try read(id, from: database) { try $0.int64(at: 0) } == value)
    #expect(try read(id, from: database) { try $0.optionalInt64(at: 0) } == value)
    #expect(try read(id, from: database) { try $0.int(at: 0) } == Int(value))
  }

  @Test("Int binds as INTEGER", arguments: [Int.min, -42, 0, Int.max])
  func intRoundTrip(value: Int) throws {
    let database = try makeDatabase()
    let id = try store(value, in: database)
    #expect(try read(id, from: database) { try $0.int(at: 0) } == value)
    #expect(try read(id, from: database) { try $0.optionalInt(at: 0) } == value)
  }

  @Test(
    "Doubles round-trip bit for bit",
    arguments: [
      0.0, -0.0, 1.5, -.pi, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity,
    ])
  func doubleRoundTrip(value: Double) throws {
    let database = try makeDatabase()
    let id = try store(value, in: database)
    let readBack = try #require(try read(id, from: database) { try $0.double(at: 0) })
    #expect(readBack.bitPattern == value.bitPattern)
    #expect(try read(id, from: database) { try $0.optionalDouble(at: 0) } == value)
  }

  @Test("NaN is refused rather than silently stored as NULL")
  func notANumber() throws {
    let database = try makeDatabase()
    let error = #expect(throws: SQLiteError.self) { try store(Double.nan, in: database) }
    #expect(error?.code == .mismatch)
    #expect(error?.message.hasPrefix("parameter 1 is NaN") == true)
    #expect(try database.firstRow("SELECT count(*) FROM v") { try $0.int(at: 0) } == 0)
  }

  @Test("Bool binds as 0 or 1 and reads back", arguments: [false, true])
  func boolRoundTrip(value: Bool) throws {
    let database = try makeDatabase()
    let id = try store(value, in: database)
    #expect(try read(id, from: database) { try $0.int64(at: 0) } == (value ? 1 : 0))
    #expect(try read(id, from: database) { try $0.bool(at: 0) } == value)
    #expect(try read(id, from: database) { try $0.optionalBool(at: 0) } == value)
  }

  @Test(
    "strings round-trip: empty, Unicode, emoji sequences, embedded NUL",
    arguments: [
      "", "plain ASCII", "naïve café", "日本語のテキスト", "👩‍👩‍👧‍👦 🇫🇷", "e\u{301} vs é",
      "before\u{0}after", String(repeating: "long ", count: 20_000),
    ])
  func stringRoundTrip(value: String) throws {
    let database = try makeDatabase()
    let id = try store(value, in: database)
    #expect(try read(id, from: database) { try $0.string(at: 0) } == value)
    #expect(try read(id, from: database) { try $0.optionalString(at: 0) } == value)
    #expect(try read(id, from: database) { try $0.isNull(at: 0) } == false)
    #expect(try read(id, from: database) { try $0.blob(at: 0) } == Array(value.utf8))
  }

  @Test("blobs round-trip as [UInt8], Data and borrowed buffers", arguments: [0, 1, 3, 70_000])
  func blobRoundTrip(count: Int) throws {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let database = try makeDatabase()
    let fromArray = try store(bytes, in: database)
    let fromData = try store(Data(bytes), in: database)
    let fromBuffer = try bytes.withUnsafeBytes { buffer in
      try database.run("INSERT INTO v (value) VALUES (?)", binding: buffer)
      return try database.lastInsertRowID
    }
    for id in [fromArray, fromData, fromBuffer] {
      #expect(try read(id, from: database) { try $0.blob(at: 0) } == bytes)
      #expect(try read(id, from: database) { try $0.optionalBlob(at: 0) } == bytes)
      // An empty blob is a BLOB, not NULL.
      #expect(try read(id, from: database) { try $0.isNull(at: 0) } == false)
    }
  }

  @Test("a large blob is stored whole and can be read without a copy")
  func largeBlob() throws {
    var bytes = [UInt8](repeating: 0, count: 16 << 20)
    for index in stride(from: 0, to: bytes.count, by: 4093) {
      bytes[index] = UInt8(truncatingIfNeeded: index / 4093)
    }
    let database = try makeDatabase()
    let id = try bytes.withUnsafeBytes { buffer in
      try database.run("INSERT INTO v (value) VALUES (?)", binding: buffer)
      return try database.lastInsertRowID
    }
    let matches = try read(id, from: database) { row in
      try row.withUnsafeBlob(at: 0) { stored in
        stored.count == bytes.count && bytes.withUnsafeBytes { stored.elementsEqual($0) }
      }
    }
    #expect(matches == true)
    #expect(try read(id, from: database) { try $0.blob(at: 0) } == bytes)
  }

  // MARK: - NULL

  @Test("nil optionals and SQLiteNull bind NULL; optional reads give nil")
  func nullBinding() throws {
    let database = try makeDatabase()
    let ids = [
      try store(nil as String?, in: database), try store(nil as Int64?, in: database),
      try store(nil as [UInt8]?, in: database), try store(SQLiteNull(), in: database),
    ]
    for id in ids {
      #expect(try read(id, from: database) { try $0.isNull(at: 0) } == true)
      #expect(try read(id, from: database) { try $0.optionalInt64(at: 0) } == .some(nil))
      #expect(try read(id, from: database) { try $0.optionalInt(at: 0) } == .some(nil))
      #expect(try read(id, from: database) { try $0.optionalDouble(at: 0) } == .some(nil))
      #expect(try read(id, from: database) { try $0.optionalBool(at: 0) } == .some(nil))
      #expect(try read(id, from: database) { try $0.optionalString(at: 0) } == .some(nil))
      #expect(try read(id, from: database) { try $0.optionalBlob(at: 0) } == .some(nil))
    }
  }

  @Test("a non-optional read of NULL throws a mismatch naming the column")
  func nonOptionalReadOfNull() throws {
    let database = try makeDatabase()
    _ = try store(nil as String?, in: database)
    let error = #expect(throws: SQLiteError.self) {
      try database.firstRow("SELECT value AS expires_at FROM v") { try $0.int64(at: 0) }
    }
    #expect(error?.code == .mismatch)
    #expect(
      error?.message == "column 0 (expires_at) holds NULL, not INTEGER; read it with the optional"
        + " accessor")
    #expect(error?.sql == "SELECT value AS expires_at FROM v")
  }

  @Test("present optionals bind their value")
  func someOptional() throws {
    let database = try makeDatabase()
    let id = try store(Optional("present"), in: database)
    #expect(try read(id, from: database) { try $0.optionalString(at: 0) } == "present")
  }

  // MARK: - Strict reads

  @Test("reads refuse values of another storage class instead of converting them")
  func strictTypes() throws {
    let database = try makeDatabase()
    let text = try store("12", in: database)
    let real = try store(2.5, in: database)
    let integer = try store(Int64(2), in: database)

    let textAsInteger = #expect(throws: SQLiteError.self) {
      try read(text, from: database) { try $0.int64(at: 0) }
    }
    #expect(textAsInteger?.code == .mismatch)
    #expect(textAsInteger?.message.contains("holds TEXT, not INTEGER") == true)
    #expect(throws: SQLiteError.self) { try read(real, from: database) { try $0.int64(at: 0) } }
    #expect(throws: SQLiteError.self) { try read(integer, from: database) { try $0.string(at: 0) } }
    #expect(throws: SQLiteError.self) { try read(integer, from: database) { try $0.blob(at: 0) } }
    let notBoolean = #expect(throws: SQLiteError.self) {
      try read(integer, from: database) { try $0.bool(at: 0) }
    }
    #expect(notBoolean?.message.contains("holds 2, not a boolean") == true)
    // An INTEGER is a valid REAL.
    #expect(try read(integer, from: database) { try $0.double(at: 0) } == 2)
  }

  @Test("a column index outside the row throws range")
  func columnOutOfRange() throws {
    let database = try makeDatabase()
    for column in [-1, 1] {
      let error = #expect(throws: SQLiteError.self) {
        try database.firstRow("SELECT 1") { try $0.int64(at: column) }
      }
      #expect(error?.code == .range)
    }
  }

  @Test("a row read after its statement moved on throws instead of reading another row")
  func staleRow() throws {
    let database = try makeDatabase()
    try database.execute("INSERT INTO v (value) VALUES (1), (2)")
    let statement = try database.prepare("SELECT value FROM v ORDER BY id")
    let first = try #require(try statement.step())
    #expect(try first.int64(at: 0) == 1)
    let second = try #require(try statement.step())
    let error = #expect(throws: SQLiteError.self) { try first.int64(at: 0) }
    #expect(error?.code == .misuse)
    #expect(try second.int64(at: 0) == 2)
    statement.reset()
    #expect(throws: SQLiteError.self) { try second.int64(at: 0) }
  }

  // MARK: - Parameters

  @Test("named parameters bind by name, with any prefix")
  func namedParameters() throws {
    let database = try makeDatabase()
    let statement = try database.prepare("SELECT :number, @text, $blob, :number")
    try statement.bind(Int64(5), named: ":number")
    try statement.bind("five", named: "@text")
    try statement.bind([UInt8]([5]), named: "$blob")
    #expect(statement.parameterCount == 3)
    let values = try statement.firstRow { row in
      (try row.int64(at: 0), try row.string(at: 1), try row.blob(at: 2), try row.int64(at: 3))
    }
    #expect(values?.0 == 5)
    #expect(values?.1 == "five")
    #expect(values?.2 == [5])
    #expect(values?.3 == 5)
  }

  @Test("an unknown parameter name or index throws range")
  func unknownParameters() throws {
    let database = try makeDatabase()
    let statement = try database.prepare("SELECT :known")
    let byName = #expect(throws: SQLiteError.self) { try statement.bind(1, named: "known") }
    #expect(byName?.code == .range)
    #expect(byName?.message.contains("no parameter named known") == true)
    for index in [0, 2] {
      let byIndex = #expect(throws: SQLiteError.self) { try statement.bind(1, at: index) }
      #expect(byIndex?.code == .range)
    }
    let noParameters = try database.prepare("SELECT 1")
    #expect(throws: SQLiteError.self) { try noParameters.bind(1, at: 1) }
  }

  @Test("run(binding:) requires one value per parameter")
  func valueCountMustMatch() throws {
    let database = try makeDatabase()
    let tooFew = #expect(throws: SQLiteError.self) {
      try database.run("INSERT INTO v (id, value) VALUES (?, ?)", binding: 1)
    }
    #expect(tooFew?.code == .range)
    #expect(tooFew?.message == "the statement takes 2 values but 1 were given")
    #expect(throws: SQLiteError.self) {
      try database.run("INSERT INTO v (value) VALUES (?)", binding: 1, 2)
    }
    // A statement from the cache has no bindings, so no values at all is a mistake too.
    let none = #expect(throws: SQLiteError.self) {
      try database.run("INSERT INTO v (value) VALUES (?)")
    }
    #expect(none?.message == "the statement takes 1 value but none were given")
    #expect(throws: SQLiteError.self) {
      try database.firstRow("SELECT value FROM v WHERE id = ?") { _ in true }
    }
    #expect(try database.firstRow("SELECT count(*) FROM v") { try $0.int(at: 0) } == 0)
  }

  @Test("bindings made with bind(_:at:) stay for repeated runs until cleared")
  func persistentBindings() throws {
    let database = try makeDatabase()
    let insert = try database.prepare("INSERT INTO v (value) VALUES (?)")
    try insert.bind("kept", at: 1)
    try insert.run()
    try insert.run()
    insert.clearBindings()
    try insert.run()
    var values: [String?] = []
    try database.forEachRow("SELECT value FROM v ORDER BY id") {
      values.append(try $0.optionalString(at: 0))
    }
    #expect(values == ["kept", "kept", nil])
  }

  // MARK: - Borrowed memory

  @Test("a buffer lent to run(binding:) is released by the time run returns")
  func borrowedBufferIsReleased() throws {
    let database = try makeDatabase()
    let insert = try database.prepare("INSERT INTO v (value) VALUES (?)")
    var bytes: [UInt8] = [1, 2, 3]
    try bytes.withUnsafeBytes { try insert.run(binding: $0) }
    bytes = [9, 9, 9]
    // The binding was cleared, so a run without values inserts NULL, never the reused memory.
    try insert.run()
    var stored: [[UInt8]?] = []
    try database.forEachRow("SELECT value FROM v ORDER BY id") {
      stored.append(try $0.optionalBlob(at: 0))
    }
    #expect(stored == [[1, 2, 3], nil])
    #expect(bytes == [9, 9, 9])
  }

  @Test("a buffer bound with bind(_:at:) is copied, so later changes to it do not matter")
  func boundBufferIsCopied() throws {
    let database = try makeDatabase()
    let insert = try database.prepare("INSERT INTO v (value) VALUES (?)")
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 1)
    defer { buffer.deallocate() }
    buffer.copyBytes(from: [1, 2, 3])
    try insert.bind(UnsafeRawBufferPointer(buffer), at: 1)
    buffer.copyBytes(from: [7, 7, 7])
    try insert.run()
    #expect(try database.firstRow("SELECT value FROM v") { try $0.blob(at: 0) } == [1, 2, 3])
  }
}
