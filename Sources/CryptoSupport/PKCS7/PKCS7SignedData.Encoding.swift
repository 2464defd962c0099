extension PKCS7SignedData {
  /// How a signed envelope is encoded.
  public enum Encoding: Sendable, Hashable {
    /// Distinguished Encoding Rules: definite lengths throughout.
    case der
    /// Basic Encoding Rules with indefinite lengths for constructed values, the form of the app
    /// receipts Apple issues.
    case indefiniteLengthBER
  }
}
