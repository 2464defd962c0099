import ArgumentParsing
import Testing

@Suite("Values read from one argument")
struct ExpressibleByArgumentTests {
  @Test("Integers are decimal and stay within their type's range")
  func integers() {
    #expect(Int(argument: "-42") == -42)
    #expect(Int32(argument: "2147483647") == .max)
    #expect(Int32(argument: "2147483648") == nil)
    #expect(Int64(argument: "9007199254740993") == 9_007_199_254_740_993)
    #expect(UInt64(argument: "18446744073709551615") == .max)
    #expect(UInt(argument: "-1") == nil)
    #expect(UInt8(argument: "0x10") == nil)
    #expect(Int(argument: "4.0") == nil)
  }

  @Test("Floating-point numbers, Booleans and strings")
  func otherStandardTypes() {
    #expect(Double(argument: "1e3") == 1000)
    #expect(Float(argument: "0.5") == 0.5)
    #expect(Double(argument: "half") == nil)
    #expect(Bool(argument: "true") == true)
    #expect(Bool(argument: "yes") == nil)
    #expect(Bool.allValueStrings == ["true", "false"])
    #expect(String(argument: "") == "")
  }

  @Test("Enumerations are read, shown and listed by raw value")
  func enumerations() {
    #expect(ExportFormat(argument: "csv") == .csv)
    #expect(ExportFormat(argument: "CSV") == nil)
    #expect(ExportFormat.csv.defaultValueDescription == "csv")
    #expect(ExportFormat.allValueStrings == ["ndjson", "csv"])
    #expect(Int.allValueStrings.isEmpty)
  }
}
