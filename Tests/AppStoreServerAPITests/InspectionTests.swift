import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import JSON
import TestDirectories
import Testing

@Suite("decode and lookup command behaviour")
struct InspectionTests {
  let roots = [TestChain.standard.root.certificate]

  func sign(_ payload: some JSONRepresentable) throws -> String {
    try JWSSigner(chain: TestChain.standard).sign(payload)
  }

  // MARK: - decode

  @Test("a valid transaction shows header, chain, verdict and pretty payload; exit 0")
  func decodeValid() throws {
    let jws = try sign(Sample.transaction())
    let report = SignedValueInspector.inspect(
      jws, trustedRoots: roots, bundleId: TestChain.bundleId, environment: .production,
      appAppleId: nil, now: Instant.signed)
    #expect(report.exitStatus == 0)
    #expect(report.text.contains("alg: ES256"))
    #expect(report.text.contains("x5c: 3 certificate(s)"))
    #expect(report.text.contains("[0] leaf: \(TestChain.standard.leaf.certificate.subject)"))
    #expect(report.text.contains("[2] root: \(TestChain.standard.root.certificate.subject)"))
    #expect(report.text.contains("carries App Store signing leaf OID"))
    #expect(report.text.contains("valid 2024-01-01T00:00:00Z to"))
    #expect(report.text.contains("Kind: transaction"))
    #expect(report.text.contains("Verdict: valid"))
    #expect(report.text.contains(#"  "transactionId": "2000000123456789","#))
    #expect(report.text.contains("not Apple Root CA - G3"))
  }

  @Test("decode --json: the verdict, chain and payload as one JSON object")
  func decodeJSON() throws {
    let jws = try sign(Sample.transaction())
    let valid = SignedValueInspector.inspect(
      jws, trustedRoots: roots, bundleId: TestChain.bundleId, environment: .production,
      appAppleId: nil, now: Instant.signed, json: true)
    #expect(valid.exitStatus == 0)
    let object = try JSONValue(parsing: Array(valid.text.utf8))
    #expect(object["verdict"]?.stringValue == "valid")
    #expect(object["kind"]?.stringValue == "transaction")
    #expect(object["algorithm"]?.stringValue == "ES256")
    #expect(object["bundle_id_checked"]?.boolValue == true)
    #expect(object["payload"]?["transactionId"]?.stringValue == "2000000123456789")
    let unverified = SignedValueInspector.inspect(
      jws, trustedRoots: [], bundleId: nil, environment: nil, appAppleId: nil,
      now: Instant.signed, json: true)
    #expect(unverified.exitStatus == 1)
    let second = try JSONValue(parsing: Array(unverified.text.utf8))
    #expect(second["verdict"]?.stringValue == "not_verified")
  }

  @Test("a tampered value is invalid with its reason; exit 1")
  func decodeTampered() throws {
    let parts = try sign(Sample.transaction()).split(separator: ".")
    var altered = Sample.transaction()
    altered.price = 1
    let tampered = "\(parts[0]).\(Base64URL.encode(altered.jsonBytes())).\(parts[2])"
    let report = SignedValueInspector.inspect(
      tampered, trustedRoots: roots, bundleId: nil, environment: nil, appAppleId: nil,
      now: Instant.signed)
    #expect(report.exitStatus == 1)
    #expect(report.text.contains("Verdict: INVALID (bad_signature)"))
    // The signature failed: nothing of the app was compared, and the report does not say it was.
    #expect(report.text.contains("Checked against: nothing of the app"))
    #expect(
      report.text.contains(
        "Not checked: bundle id, environment: verification stopped before comparing"))
    #expect(report.text.contains(#""price": 1"#))
  }

  @Test("the kind is recognized from the payload and checked as that kind")
  func decodeKinds() throws {
    let notification = NotificationPayload(
      notificationType: .test, signedDate: Instant.signed,
      data: NotificationData(
        appAppleId: TestChain.appAppleId, bundleId: TestChain.bundleId, environment: .sandbox))
    let cases: [(String, String)] = [
      (try sign(Sample.renewalInfo()), "Kind: renewal info"),
      (try sign(Sample.appTransaction()), "Kind: app transaction"),
      (try sign(notification), "Kind: notification"),
    ]
    for (jws, kind) in cases {
      let report = SignedValueInspector.inspect(
        jws, trustedRoots: roots, bundleId: nil, environment: nil, appAppleId: nil,
        now: Instant.signed)
      #expect(report.text.contains(kind))
      #expect(report.exitStatus == 0, "\(report.text)")
    }
  }

  @Test("a given bundle id or environment is checked; no root means not verified")
  func decodeChecksAndNoRoot() throws {
    let jws = try sign(Sample.transaction())
    let other = SignedValueInspector.inspect(
      jws, trustedRoots: roots, bundleId: "com.other", environment: nil, appAppleId: nil,
      now: Instant.signed)
    #expect(other.exitStatus == 1)
    #expect(other.text.contains("INVALID (bundle_id_mismatch)"))
    let sandbox = SignedValueInspector.inspect(
      jws, trustedRoots: roots, bundleId: nil, environment: .sandbox, appAppleId: nil,
      now: Instant.signed)
    #expect(sandbox.text.contains("INVALID (environment_mismatch)"))
    let unverified = SignedValueInspector.inspect(
      jws, trustedRoots: [], bundleId: nil, environment: nil, appAppleId: nil, now: Instant.signed)
    #expect(unverified.exitStatus == 1)
    #expect(unverified.text.contains("NOT VERIFIED"))
  }

  /// `decode --bundle-id` once said it had checked a renewal info's bundle id, which renewal
  /// information does not carry (and one the payload named otherwise went unremarked).
  @Test("renewal information: the bundle id is reported not checked, with what the payload says")
  func decodeRenewalBundleIdNotChecked() throws {
    let plain = try sign(Sample.renewalInfo())
    var members = try #require(
      { () -> [JSONValue.Member]? in
        if case .object(let members) = try JSONValue(parsing: Sample.renewalInfo().jsonBytes()) {
          return members
        }
        return nil
      }())
    members.append(JSONValue.Member("bundleId", .string("com.other")))
    let contradicting = try JWSSigner(chain: TestChain.standard).sign(
      payload: Array(JSONValue.object(members).serialized().utf8))
    for (jws, payloadNames) in [(plain, false), (contradicting, true)] {
      let report = SignedValueInspector.inspect(
        jws, trustedRoots: roots, bundleId: TestChain.bundleId, environment: .production,
        appAppleId: nil, now: Instant.signed)
      #expect(report.exitStatus == 0, "\(report.text)")
      #expect(report.text.contains("Kind: renewal info"))
      #expect(report.text.contains("Checked against: environment Production\n"), "\(report.text)")
      #expect(
        report.text.contains(
          "Not checked: bundle id: renewal info carries none Apple's verifiers compare"))
      #expect(report.text.contains("--bundle-id \(TestChain.bundleId) was not compared"))
      #expect(report.text.contains(#"the payload names "com.other""#) == payloadNames)
      let json = SignedValueInspector.inspect(
        jws, trustedRoots: roots, bundleId: TestChain.bundleId, environment: .production,
        appAppleId: nil, now: Instant.signed, json: true)
      let object = try JSONValue(parsing: Array(json.text.utf8))
      #expect(object["bundle_id_checked"]?.boolValue == false)
      #expect(object["environment_checked"]?.boolValue == true)
      guard case .array(let reasons)? = object["not_checked"] else {
        Issue.record("no not_checked array")
        continue
      }
      #expect(reasons.count == 1)
    }
  }

  @Test("an app Apple id is reported checked only where verification compares it")
  func decodeAppAppleId() throws {
    let transaction = SignedValueInspector.inspect(
      try sign(Sample.transaction()), trustedRoots: roots, bundleId: nil, environment: nil,
      appAppleId: 42, now: Instant.signed)
    #expect(transaction.text.contains("Not checked: app Apple id: a transaction is never compared"))
    let appTransaction = SignedValueInspector.inspect(
      try sign(Sample.appTransaction()), trustedRoots: roots, bundleId: nil, environment: nil,
      appAppleId: TestChain.appAppleId, now: Instant.signed)
    #expect(appTransaction.exitStatus == 0, "\(appTransaction.text)")
    #expect(
      appTransaction.text.contains("app Apple id \(TestChain.appAppleId);"),
      "\(appTransaction.text)")
  }

  @Test("garbage input is reported as malformed, not a crash")
  func decodeGarbage() {
    let report = SignedValueInspector.inspect(
      "not a jws", trustedRoots: roots, bundleId: nil, environment: nil, appAppleId: nil,
      now: Instant.signed)
    #expect(report.exitStatus == 1)
    #expect(report.text.contains("INVALID (malformed)"))
  }

  @Test("input comes from an argument, a file or standard input")
  func decodeInput() throws {
    #expect(try SignedValueInspector.readInput(" a.b.c \n", standardInput: { [] }) == "a.b.c")
    #expect(
      try SignedValueInspector.readInput("-", standardInput: { Array("x.y.z\n".utf8) }) == "x.y.z")
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory + "/value.jws"
    try writeFile(Array("f.g.h\n".utf8), to: path)
    #expect(try SignedValueInspector.readInput(path, standardInput: { [] }) == "f.g.h")
    #expect(throws: ConfigurationError.self) {
      _ = try SignedValueInspector.readInput("-", standardInput: { [] })
    }
  }

  // MARK: - lookup settings

  @Test("lookup settings name every missing variable")
  func settingsMissing() {
    do {
      _ = try LookupSettings.read(from: ["ASC_KEY_ID": "K"])
      Issue.record("expected a configuration error")
    } catch {
      #expect(error.message.contains("ASC_ISSUER_ID"))
      #expect(error.message.contains("ASC_PRIVATE_KEY_PATH"))
      #expect(error.message.contains("APP_BUNDLE_ID"))
      #expect(!error.message.contains("ASC_KEY_ID,"))
    }
  }

  @Test("lookup settings load the key, roots, app id, environment and URL overrides")
  func settingsComplete() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    try TestChain.standard.write(toDirectory: directory)
    var variables = [
      "ASC_ISSUER_ID": "issuer", "ASC_KEY_ID": "KEY", "APP_BUNDLE_ID": TestChain.bundleId,
      "ASC_PRIVATE_KEY_PATH": directory + "/leaf-key.pem",
      "APP_STORE_ROOT_CERTIFICATES": directory + "/root.pem",
      "APP_APPLE_ID": "1234567890", "APP_STORE_ENVIRONMENT": "Sandbox",
      "APP_STORE_PRODUCTION_URL": "http://127.0.0.1:8080",
    ]
    let settings = try LookupSettings.read(from: variables)
    #expect(settings.environment == .sandbox)
    #expect(settings.configuration.appAppleId == 1_234_567_890)
    #expect(settings.configuration.trustedRoots == roots)
    #expect(
      settings.configuration.baseURL(for: .production)?.absoluteString == "http://127.0.0.1:8080")
    #expect(
      settings.configuration.baseURL(for: .sandbox)?.absoluteString
        == "https://api.storekit-sandbox.apple.com")

    variables["APP_APPLE_ID"] = "12ab"
    #expect(throws: ConfigurationError.self) { _ = try LookupSettings.read(from: variables) }
    variables["APP_APPLE_ID"] = "1"
    variables["APP_STORE_ENVIRONMENT"] = "staging"
    #expect(throws: ConfigurationError.self) { _ = try LookupSettings.read(from: variables) }
    variables["APP_STORE_ENVIRONMENT"] = "auto"
    #expect(try LookupSettings.read(from: variables).environment == nil)
    // Production (or auto, which asks production first) without the app's Apple id is refused
    // before any request, as Apple's library refuses it; sandbox does not need it.
    variables["APP_APPLE_ID"] = nil
    for choice in ["auto", "production"] {
      variables["APP_STORE_ENVIRONMENT"] = choice
      do {
        _ = try LookupSettings.read(from: variables)
        Issue.record("production without APP_APPLE_ID must be refused")
      } catch {
        #expect(error.message.contains("APP_APPLE_ID is not set"))
      }
    }
    variables["APP_STORE_ENVIRONMENT"] = "sandbox"
    #expect(try LookupSettings.read(from: variables).configuration.appAppleId == nil)
    variables["APP_STORE_ENVIRONMENT"] = "auto"
    variables["APP_APPLE_ID"] = "1"
    variables["ASC_PRIVATE_KEY_PATH"] = directory + "/root.pem"
    do {
      _ = try LookupSettings.read(from: variables)
      Issue.record("a certificate is not a key")
    } catch {
      #expect(error.message.contains("App Store Connect"))
      #expect(error.message.contains("ASC_PRIVATE_KEY_PATH"))
    }
  }

  // MARK: - lookup

  func lookupHarness(
    _ answer: @escaping @Sendable (HTTPRequest) -> Result<HTTPResponse, TransportFailure>
  )
    throws -> ClientHarness
  {
    try ClientHarness(transport: ScriptedTransport { request, _ in answer(request) })
  }

  @Test("lookup finds a sandbox customer after production's 4040010 and summarizes it")
  func lookupSummary() async throws {
    let transaction = try sign(Sample.transaction(environment: .sandbox))
    let renewal = try sign(Sample.renewalInfo(environment: .sandbox))
    let app = try sign(Sample.appTransaction(environment: .sandbox, appAppleId: nil))
    let harness = try lookupHarness { request in
      let path = request.url.path
      if path.hasPrefix("/prod") { return Answer.error(404, code: 4_040_010) }
      if path.contains("/history/") {
        return Answer.history([transaction], revision: "rev", hasMore: false, environment: .sandbox)
      }
      if path.contains("/appTransactions/") {
        return Answer.json {
          $0.beginObject()
          $0.field("signedAppTransactionInfo", app)
          $0.endObject()
        }
      }
      return Answer.json { writer in
        writer.beginObject()
        writer.field("environment", "Sandbox")
        writer.key("data")
        writer.beginArray()
        writer.beginObject()
        writer.field("subscriptionGroupIdentifier", "21000001")
        writer.key("lastTransactions")
        writer.beginArray()
        writer.beginObject()
        writer.field("status", Int64(4))
        writer.field("originalTransactionId", "2000000000000001")
        writer.field("signedTransactionInfo", transaction)
        writer.field("signedRenewalInfo", renewal)
        writer.endObject()
        writer.endArray()
        writer.endObject()
        writer.endArray()
        writer.endObject()
      }
    }
    let report = await CustomerLookup.run(
      "2000000123456789", client: harness.client, environment: nil, json: false)
    #expect(report.exitStatus == 0, "\(report.text)")
    #expect(report.text.hasPrefix("Customer of transaction 2000000123456789: Sandbox"))
    #expect(report.text.contains("App transaction: 704289572311811111"))
    #expect(report.text.contains("History: 1 transaction(s) on 1 page(s); revision rev"))
    #expect(report.text.contains("com.example.monthly"))
    #expect(report.text.contains("revoked 2024-02-03T22:40:00Z (REFUND_PRORATED)"))
    #expect(
      report.text.contains("group 21000001: 2000000000000001 in billing grace period (4), entitled")
    )
    #expect(
      report.text.contains(
        "Requests: 4 (transaction_history 2, subscription_statuses 1, app_transaction_info 1)"))

    let json = await CustomerLookup.run(
      "2000000123456789", client: harness.client, environment: .sandbox, json: true)
    let value = try JSONValue(parsing: Array(json.text.utf8))
    #expect(value["environment"]?.stringValue == "Sandbox")
    #expect(value["app_transaction"]?["appTransactionId"]?.stringValue == "704289572311811111")
  }

  @Test("lookup exits 4 for an id unknown everywhere and 3 for rejected credentials")
  func lookupFailures() async throws {
    let unknown = try lookupHarness { _ in Answer.error(404, code: 4_040_010) }
    let notFound = await CustomerLookup.run(
      "1", client: unknown.client, environment: nil, json: false)
    #expect(notFound.exitStatus == 4)
    #expect(notFound.text.contains("unknown to the App Store"))
    let refused = try lookupHarness { _ in Answer.text(401, "Unauthenticated") }
    let unauthorized = await CustomerLookup.run(
      "1", client: refused.client, environment: .production, json: false)
    #expect(unauthorized.exitStatus == 3)
    #expect(unauthorized.text.contains("401"))
  }

  @Test("a server that echoes the Authorization header never gets the token printed")
  func echoedSecrets() async throws {
    // A misbehaving server or proxy puts the request's credentials in its error answers: in
    // Apple's JSON error message, and in the Content-Type of a body that is not JSON.
    let echo = try lookupHarness { request in
      let authorization = request.headers["Authorization"] ?? ""
      if request.url.path.hasPrefix("/prod") {
        return Answer.error(
          400, code: 4_000_000, message: "Bad request; you sent Authorization: \(authorization)")
      }
      return Answer.text(502, "bad gateway", type: "text/html; echo=\(authorization)")
    }
    for json in [false, true] {
      for environment in [AppStoreEnvironment.production, .sandbox] {
        let report = await CustomerLookup.run(
          "2000000123456789", client: echo.client, environment: environment, json: json)
        #expect(!report.text.contains("eyJ"), "\(report.text)")
        #expect(report.text.contains("<redacted"), "\(report.text)")
      }
    }
  }
}
