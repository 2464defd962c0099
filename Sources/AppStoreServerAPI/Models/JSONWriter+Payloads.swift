import Chronology
import JSON

// Writers that leave absent members out, the way Apple's payloads do (rather than `null`).

extension JSONWriter {
  mutating func member(_ name: String, _ value: String?) {
    if let value { field(name, value) }
  }

  mutating func member(_ name: String, _ value: Int64?) {
    if let value { field(name, value) }
  }

  mutating func member(_ name: String, _ value: Int?) {
    if let value { field(name, Int64(value)) }
  }

  mutating func member(_ name: String, _ value: Bool?) {
    if let value { field(name, value) }
  }

  mutating func member(_ name: String, _ value: Timestamp?) {
    if let value { field(name, value.millisecondsSince1970) }
  }

  mutating func member<Value: OpenEnumeration>(_ name: String, _ value: Value?)
  where Value.RawValue == String {
    if let value { field(name, value.rawValue) }
  }

  mutating func member<Value: OpenEnumeration>(_ name: String, _ value: Value?)
  where Value.RawValue == Int64 {
    if let value { field(name, value.rawValue) }
  }

  mutating func member(_ name: String, _ values: [String]?) {
    guard let values else { return }
    key(name)
    beginArray()
    for value in values { self.value(value) }
    endArray()
  }

  mutating func member(_ name: String, _ value: (some JSONRepresentable)?) {
    guard let value else { return }
    key(name)
    value.write(to: &self)
  }
}
