/// Removes anything shaped like a credential from text that came from the network.
///
/// A server — Apple's, a proxy in front of it, a misconfigured gateway — may echo a request's
/// `Authorization` header or other secrets in an error body. Such text is printed, stored in
/// the database and written to reports, so every string received from the network passes
/// through here first. What is removed:
///
/// - `Bearer …` credentials, whatever the token looks like;
/// - compact JWS/JWT tokens (three base64url segments, the first a JSON object: `eyJ…`);
/// - PEM blocks (`-----BEGIN … -----END …-----`), the shape of a `.p8` key;
/// - any other unbroken run of 64 or more base64 characters, the shape of key material,
///   signatures and receipts.
///
/// Each is replaced by a marker saying what was there, so a reader knows text was removed.
public enum SecretScrubber {
  /// The shortest base64 run treated as secret material. Transaction ids (at most 20 digits),
  /// UUIDs (36 characters with dashes, which break runs here) and error codes stay readable.
  public static let longestHarmlessRun = 63

  /// `text` with every credential-shaped part replaced.
  public static func scrub(_ text: String) -> String {
    // Cheap exit for the common case: short, plain messages.
    guard text.utf8.count > 16 else { return text }
    var result = text
    result.replace(#/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/#) { _ in
      "<redacted key>"
    }
    result.replace(#/(?i:bearer)\s+[A-Za-z0-9._~+\/=-]+/#) { _ in "Bearer <redacted>" }
    result.replace(#/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?/#) { _ in
      "<redacted token>"
    }
    result.replace(#/[A-Za-z0-9+\/=_-]{64,}/#) { _ in "<redacted>" }
    return result
  }
}
