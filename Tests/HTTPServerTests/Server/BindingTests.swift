import Glibc
import Testing

@testable import HTTPServer

@Suite("Binding and configuration")
struct BindingTests {
  @Test(
    "Addresses outside 127.0.0.0/8 are refused",
    arguments: [
      "0.0.0.0", "10.0.0.1", "192.168.1.20", "128.0.0.1", "::1", "localhost", "", "127.0.0.1.5",
    ])
  func refusesNonLoopbackAddresses(address: String) {
    do throws(HTTPServerError) {
      let server = try HTTPServer.start(
        configuration: HTTPServerConfiguration(address: address), handler: { _ in HTTPResponse() })
      server.stop()
      Issue.record("the server started on \(address)")
    } catch {
      #expect(error.kind == .addressNotLoopback)
      #expect(error.message.contains("127.0.0.1"))
    }
  }

  @Test(arguments: ["127.0.0.1", "127.0.0.2"])
  func listensOnLoopbackAndReportsTheBoundAddressAndPort(address: String) throws {
    let server = try HTTPServer.start(
      configuration: HTTPServerConfiguration(address: address), handler: TestHandlers.echo)
    defer { server.stop() }
    #expect(server.address.host == address)
    #expect(server.port > 0)
    #expect(server.address.port == server.port)
  }

  @Test func explainsAPortThatIsTaken() throws {
    let first = try HTTPServer.start(handler: TestHandlers.echo)
    defer { first.stop() }
    do throws(HTTPServerError) {
      let second = try HTTPServer.start(
        configuration: HTTPServerConfiguration(port: first.port), handler: { _ in HTTPResponse() }
      )
      second.stop()
      Issue.record("two servers listened on port \(first.port)")
    } catch {
      #expect(error.kind == .socketFailure)
      #expect(error.systemErrorNumber == EADDRINUSE)
      #expect(error.message.contains("127.0.0.1:\(first.port)"))
      #expect(error.message.contains("port 0"))
    }
  }

  @Test(
    "Invalid settings are refused before anything is opened",
    arguments: [
      HTTPServerConfiguration(port: 65536),
      HTTPServerConfiguration(port: -1),
      HTTPServerConfiguration(maximumConnections: 0),
      HTTPServerConfiguration(listenBacklog: 0),
      HTTPServerConfiguration(maximumHeaderBytes: 10),
      HTTPServerConfiguration(maximumBodyBytes: -1),
      HTTPServerConfiguration(idleTimeout: .zero),
      HTTPServerConfiguration(readTimeout: .seconds(-1)),
      HTTPServerConfiguration(writeTimeout: .zero),
    ])
  func refusesInvalidConfigurations(configuration: HTTPServerConfiguration) {
    do throws(HTTPServerError) {
      let server = try HTTPServer.start(configuration: configuration) { _ in HTTPResponse() }
      server.stop()
      Issue.record("the server started with an invalid configuration")
    } catch {
      #expect(error.kind == .invalidConfiguration)
    }
  }
}
