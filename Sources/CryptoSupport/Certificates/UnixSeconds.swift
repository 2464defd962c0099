/// Whole Unix seconds of an instant given in milliseconds, for OpenSSL's `time_t` interfaces.
enum UnixSeconds {
  /// The second an instant falls in: `milliseconds / 1000` rounded towards negative infinity,
  /// so that instants before 1970 land on the right second.
  ///
  /// Written without `milliseconds - 999`, which overflows for the instants within a second of
  /// `Int64.min`: the instant is read from signed data (a JWS `signedDate`) before its signature
  /// is checked, so any 64-bit value can arrive here.
  ///
  /// - Parameter milliseconds: Unix milliseconds, any 64-bit value.
  /// - Returns: The second, between `Int64.min / 1000 - 1` and `Int64.max / 1000`.
  static func floor(milliseconds: Int64) -> Int64 {
    let quotient = milliseconds / 1000
    return milliseconds % 1000 < 0 ? quotient - 1 : quotient
  }
}
