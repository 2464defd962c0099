import JSON
import Testing

@Suite("JSONWriter and JSONValue")
struct JSONWriterTests {
  @Test("writes compact JSON in insertion order with escapes")
  func compact() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("b", "quote \" backslash \\ newline \n tab \t bell \u{7}")
    writer.field("a", Int64(-12))
    writer.field("missing", String?.none)
    writer.key("list")
    writer.beginArray()
    writer.value(true)
    writer.value(1.5)
    writer.value(3.0)
    writer.beginObject()
    writer.endObject()
    writer.beginArray()
    writer.endArray()
    writer.endArray()
    writer.endObject()
    #expect(
      writer.string
        == #"{"b":"quote \" backslash \\ newline \n tab \t bell \u0007","a":-12,"missing":null,"list":[true,1.5,3,{},[]]}"#
    )
  }

  @Test("writes pretty JSON with two-space indentation")
  func pretty() {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("version", 1)
    writer.key("items")
    writer.beginArray()
    writer.value("a")
    writer.endArray()
    writer.key("empty")
    writer.beginObject()
    writer.endObject()
    writer.endObject()
    #expect(
      writer.string == """
        {
          "version": 1,
          "items": [
            "a"
          ],
          "empty": {}
        }
        """)
  }

  @Test("round-trips documents through JSONValue, keeping numbers and key order exactly")
  func roundTrip() throws {
    let text = #"{"z":1,"a":[9007199254740993,-0.5e-3,"é\n",null,false,{"k":{}}]}"#
    let value = try JSONValue(parsing: Array(text.utf8))
    #expect(value.serialized() == text)
    #expect(value["z"]?.int64Value == 1)
    guard case .array(let elements)? = value["a"] else {
      Issue.record("expected an array")
      return
    }
    #expect(elements[0].int64Value == 9_007_199_254_740_993)
    #expect(elements[2].stringValue == "é\n")
  }
}
