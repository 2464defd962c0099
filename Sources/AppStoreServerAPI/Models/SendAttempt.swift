import Chronology
import JSON

/// One attempt to deliver a server notification.
public struct SendAttempt: JSONRepresentable, Hashable {
  /// When the App Store tried to deliver the notification.
  public var attemptDate: Timestamp?

  /// How the attempt ended.
  public var sendAttemptResult: SendAttemptResult?

  /// A payload with the given members; every member defaults to absent.
  ///
  /// - Parameters:
  ///   - attemptDate: When the App Store tried to deliver the notification.
  ///   - sendAttemptResult: How the attempt ended.
  public init(
    attemptDate: Timestamp? = nil,
    sendAttemptResult: SendAttemptResult? = nil
  ) {
    self.attemptDate = attemptDate
    self.sendAttemptResult = sendAttemptResult
  }

  // MARK: - JSON

  /// Reads the payload object; unknown members are skipped.
  ///
  /// - Parameter reader: A reader positioned before the object.
  /// - Returns: The payload.
  /// - Throws: `JSONError` when the object is malformed or a member has the wrong type.
  public static func read(from reader: inout JSONReader) throws(JSONError) -> SendAttempt {
    var value = SendAttempt()
    try reader.beginObject()
    while let key = try reader.nextKey() {
      switch key {
      case "attemptDate": value.attemptDate = try reader.readOptionalTimestamp()
      case "sendAttemptResult":
        value.sendAttemptResult = try reader.readOptional(SendAttemptResult.self)
      default: try reader.skipValue()
      }
    }
    return value
  }

  /// Writes the payload object with its present members.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("attemptDate", attemptDate)
    writer.member("sendAttemptResult", sendAttemptResult)
    writer.endObject()
  }
}
