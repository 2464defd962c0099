import Foundation
import HTTPClient
import Testing

@Suite(
  "TLS verification against openssl s_server on loopback",
  .enabled(if: TLSTestFixtures.isAvailable, "needs the openssl command"))
struct TLSVerificationTests {
  static let fixtures = Result { try TLSTestFixtures() }

  private func client(trustingTestAuthority: Bool) throws -> SocketHTTPClient {
    var configuration = HTTPClientConfiguration()
    configuration.timeout = .seconds(20)
    if trustingTestAuthority {
      configuration.additionalTrustedCertificatesPEM = [try Self.fixtures.get().authorityPEM]
    }
    return SocketHTTPClient(configuration: configuration)
  }

  private func get(_ host: String, _ port: Int) -> HTTPClientRequest {
    HTTPClientRequest(method: "GET", scheme: "https", host: host, port: port, target: "/")
  }

  @Test(
    "a certificate from the trusted test authority for the host succeeds",
    arguments: ["localhost", "127.0.0.1"])
  func good(host: String) async throws {
    let server = try Self.fixtures.get().startServer("good")
    defer { server.stop() }
    let response = try await client(trustingTestAuthority: true).execute(get(host, server.port))
    #expect(response.status == 200)
    #expect(String(decoding: response.body, as: UTF8.self).contains("s_server"))
  }

  @Test("the same certificate fails when only the system's trust store is trusted")
  func systemTrustOnly() async throws {
    let server = try Self.fixtures.get().startServer("good")
    defer { server.stop() }
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client(trustingTestAuthority: false).execute(get("localhost", server.port))
    }
    #expect(error?.kind == .certificateRejected)
    #expect(error?.message.contains("certificate verification failed") == true)
  }

  @Test("a trusted certificate for another host fails, naming the mismatch")
  func wrongHost() async throws {
    let server = try Self.fixtures.get().startServer("wrong-host")
    defer { server.stop() }
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client(trustingTestAuthority: true).execute(get("localhost", server.port))
    }
    #expect(error?.kind == .certificateRejected)
    #expect(error?.message.contains("hostname mismatch") == true)
    #expect(error?.message.contains("localhost:\(server.port)") == true)
  }

  @Test("a self-signed certificate for the host fails as untrusted")
  func untrusted() async throws {
    let server = try Self.fixtures.get().startServer("untrusted")
    defer { server.stop() }
    let error = await #expect(throws: HTTPClientError.self) {
      _ = try await client(trustingTestAuthority: true).execute(get("localhost", server.port))
    }
    #expect(error?.kind == .certificateRejected)
    #expect(error?.message.contains("self-signed") == true)
  }
}
