import Foundation
import Testing
import TestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct LoopbackHTTPServerTests {
  private func post(_ url: URL, body: String, timeout: Double = 5) async throws -> (
    Data, HTTPURLResponse?
  ) {
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = "POST"
    request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body.utf8)
    let session = URLSession(configuration: .ephemeral)
    defer { session.invalidateAndCancel() }
    let (data, response) = try await session.data(for: request)
    return (data, response as? HTTPURLResponse)
  }

  @Test func servesDelayedChunksAndRecordsTheRequest() async throws {
    let server = try LoopbackHTTPServer { request in
      .reply(
        status: 201, headers: [.init("X-Echo", request.path)],
        chunks: [.init("hel"), .init("lo ", after: .milliseconds(20)), .init(request.bodyText)])
    }
    defer { server.stop() }
    let (data, response) = try await post(
      server.baseURL.appendingPathComponent("v1/echo"), body: "wörld")
    #expect(String(decoding: data, as: UTF8.self) == "hello wörld")
    #expect(response?.statusCode == 201)
    #expect(response?.value(forHTTPHeaderField: "X-Echo") == "/v1/echo")
    let recorded = try #require(server.requests.first)
    #expect(recorded.method == "POST")
    #expect(recorded.bodyText == "wörld")
    #expect(recorded.header("content-type") == "text/plain")
  }

  @Test func closingWithoutAnAnswerIsAnErrorForTheClient() async throws {
    let server = try LoopbackHTTPServer { _ in .close }
    defer { server.stop() }
    await #expect(throws: (any Error).self) {
      _ = try await post(server.baseURL, body: "x")
    }
  }

  @Test func aHangingServerIsEndedByStop() async throws {
    let server = try LoopbackHTTPServer { _ in .hang }
    let stopper = Task {
      while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
      server.stop()
    }
    await #expect(throws: (any Error).self) {
      _ = try await post(server.baseURL, body: "x", timeout: 30)
    }
    stopper.cancel()
    #expect(server.requests.count == 1)
  }

  @Test func anUnusedPortRefusesConnections() async throws {
    let port = try LoopbackHTTPServer.unusedPort()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
    await #expect(throws: (any Error).self) { _ = try await post(url, body: "x") }
  }
}
