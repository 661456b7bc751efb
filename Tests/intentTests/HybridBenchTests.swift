import Foundation
import IntentEngine
import TestSupport
import Testing

@testable import intent

/// `intent bench --route auto` against a loopback model.
struct HybridBenchTests {
  /// Answers by what the request says: Paris is weather, a subscription is nothing, else prose.
  static func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
    let text = request.bodyText
    let content =
      text.contains("paris")
      ? #"{"skill_id": "weather.query", "input": {}}"#
      : text.contains("subscription") ? #"{"skill_id": null}"# : "no idea"
    return .text(CloudRunTests.chat(content))
  }

  @Test func hybridFiguresCountWhatTheCloudDecided() async throws {
    let server = try LoopbackHTTPServer(handler: Self.answer)
    defer { server.stop() }
    let scratch = try BenchScratch()
    let output = await scratch.run(
      ["bench", "--json", "--repeat", "0", "--route", "auto", "--no-thresholds"],
      environment: [
        "INTENT_LLM_BASE_URL": server.baseURL.appendingPathComponent("v1").absoluteString,
        "INTENT_LLM_MODEL": "m", "INTENT_LLM_API_KEY": CloudRunTests.key,
        // The figures are under test, not the timeout: under a loaded parallel run a loopback
        // reply has taken longer than the default 10 s.
        "INTENT_LLM_TIMEOUT": "120",
      ])
    #expect(output.code == 0, "\(output.stderr)")
    let json = try JSONValue(parsing: Data(output.stdout.utf8))
    let hybrid = try #require(json["hybrid"])
    // Two lines are unsure locally: the Paris weather question and the subscription.
    #expect(hybrid["cloud_asked"]?.numberValue == 2)
    #expect(server.requests.count == 2)
    #expect(hybrid["cloud_share"]?.numberValue == 0.25)
    #expect(hybrid["cloud_valid"]?.numberValue == 2)
    #expect(hybrid["cloud_right"]?.numberValue == 2)
    // Answered: six local (five right) plus the cloud's weather answer.
    #expect(hybrid["precision"]?.numberValue == 0.8571)
    #expect(hybrid["coverage"]?.numberValue == 1)
    #expect(hybrid["false_accepts"]?.numberValue == 1)
    #expect(hybrid["routes"]?["cloud"]?.numberValue == 1)
    #expect(hybrid["routes"]?["unmatched"]?.numberValue == 1)
    #expect(hybrid["cloud_p50_ms"]?.numberValue != nil)
    #expect(!output.stdout.contains(CloudRunTests.key))
    #expect(!output.stderr.contains(CloudRunTests.key))

    let text = await scratch.run(
      ["bench", "--repeat", "0", "--route", "auto", "--no-thresholds"],
      environment: [
        "INTENT_LLM_BASE_URL": server.baseURL.appendingPathComponent("v1").absoluteString,
        "INTENT_LLM_MODEL": "m", "INTENT_LLM_TIMEOUT": "120",
      ])
    #expect(text.stdout.contains("  sent to the cloud      2 (25.0%)\n"))
    #expect(text.stdout.contains("  end-to-end coverage    100.0% (6 of 6 in scope)\n"))
  }

  @Test func autoRouteWithoutAModelIsAnError() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["bench", "--route", "auto"])
    #expect(output.code == 1)
    #expect(output.stderr.hasPrefix("error: no cloud model is configured"))
  }
}
