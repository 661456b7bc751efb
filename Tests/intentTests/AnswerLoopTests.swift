import Foundation
import TestSupport
import Testing

@testable import intent

/// `intent run --answer` against a loopback OpenAI-compatible server: skill results go back to
/// the model as `tool` messages answering their calls, and its final text is the answer.
struct AnswerLoopTests {
  static let key = CloudRunTests.key
  static let now = CloudRunTests.now
  static let final = "好的，3分钟后提醒你关火，另外1分钟的计时也开始了。"

  /// A response asking for one function call.
  static func toolCall(_ name: String, id: String, arguments: String) -> String {
    let body: [String: Any] = [
      "choices": [
        [
          "index": 0, "finish_reason": "tool_calls",
          "message": [
            "role": "assistant", "content": NSNull(),
            "tool_calls": [
              [
                "id": id, "type": "function",
                "function": ["name": name, "arguments": arguments],
              ]
            ],
          ],
        ]
      ]
    ]
    let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The messages of a chat-completions request.
  static func messages(_ request: LoopbackHTTPServer.Request) -> [[String: Any]] {
    let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
    return body?["messages"] as? [[String: Any]] ?? []
  }

  /// The content of the `tool` message answering call `id`, or nil.
  static func toolMessage(_ request: LoopbackHTTPServer.Request, answering id: String) -> String? {
    messages(request).first {
      $0["role"] as? String == "tool" && $0["tool_call_id"] as? String == id
    }?[
      "content"] as? String
  }

  struct Run {
    var status: Int32
    var json: [String: Any]
    var stdout: String
    var stderr: String
    var requests: [LoopbackHTTPServer.Request]
    var clauses: [[String: Any]] { json["clauses"] as? [[String: Any]] ?? [] }
  }

  func run(
    _ text: String, route: String, server: LoopbackHTTPServer?, json: Bool = true,
    environment extra: [String: String] = [:]
  ) async throws -> Run {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    var environment: [String: String] = [:]
    if let server {
      environment = [
        "INTENT_LLM_BASE_URL": "http://127.0.0.1:\(server.port)/v1",
        "INTENT_LLM_MODEL": "test-model", "INTENT_LLM_API_KEY": Self.key,
        "INTENT_LLM_TIMEOUT": "15",
      ]
    }
    environment.merge(extra) { $1 }
    let status = await cli.run(
      ["run"] + (json ? ["--json"] : []) + ["--answer", "--route", route, "--now", Self.now, text],
      environment: environment)
    let object = (try? JSONSerialization.jsonObject(with: Data(cli.stdout.utf8))) as? [String: Any]
    return Run(
      status: status, json: object ?? [:], stdout: cli.stdout, stderr: cli.stderr,
      requests: server?.requests ?? [])
  }

  @Test func aToolCallThenAFinalAnswerComesBackAsTheAnswer() async throws {
    let server = try LoopbackHTTPServer { request in
      if !request.bodyText.contains("\"tools\"") {
        return .text(CloudRunTests.chat(CloudRunTests.timerAnswer))
      }
      if Self.toolMessage(request, answering: "call_abc") != nil {
        return .text(CloudRunTests.chat(Self.final))
      }
      return .text(Self.toolCall("timer_start", id: "call_abc", arguments: #"{"duration": 60}"#))
    }
    defer { server.stop() }
    let run = try await run(CloudRunTests.confident, route: "cloud", server: server)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.json["answer"] as? String == Self.final)
    #expect(run.json["route"] as? String == "cloud")
    #expect(run.requests.count == 3)
    let last = try #require(run.requests.last)
    // The call stays in the history, and the tool message answers it by id.
    let assistant = Self.messages(last).filter { $0["role"] as? String == "assistant" }
    let ids = assistant.flatMap {
      ($0["tool_calls"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
    #expect(ids.contains("call_abc"))
    let result = try #require(Self.toolMessage(last, answering: "call_abc"))
    #expect(result.contains("1 minute") || result.contains("1分钟"), "\(result)")
    // The skill the first answer ran went to the model too, as a call with its result.
    #expect(
      Self.messages(last).contains {
        ($0["content"] as? String)?.contains("关火") == true && $0["role"] as? String == "tool"
      })
    #expect(run.clauses.count == 2)
    #expect(run.clauses.last?["intent"] as? String == "timer.start")
    #expect((run.clauses.last?["slots"] as? [String: Any])?["duration"] as? Double == 60)
    for request in run.requests { #expect(request.header("Authorization") == "Bearer \(Self.key)") }
    #expect(!run.stdout.contains(Self.key) && !run.stderr.contains(Self.key))
  }

  @Test func aModelThatNeverStopsCallingSkillsEndsAfterFiveRounds() async throws {
    let server = try LoopbackHTTPServer { request in
      .text(
        Self.toolCall(
          "timer_start", id: "call_\(request.body.count)", arguments: #"{"duration": 30}"#))
    }
    defer { server.stop() }
    let run = try await run(CloudRunTests.confident, route: "auto", server: server)
    #expect(run.status == 1)
    #expect(run.requests.count == 5)
    #expect(run.json["answer"] is NSNull)
    let error = try #require(run.json["answer_error"] as? String)
    #expect(error.contains("after 5 rounds"))
    #expect(run.stderr.contains("error: the cloud model still called skills after 5 rounds"))
    // The results so far: the first command and the four rounds whose results went back.
    #expect(run.clauses.count == 5)
  }

  @Test func anUnknownToolNameIsAnsweredWithTheSkillsAndNeverRun() async throws {
    let server = try LoopbackHTTPServer { request in
      if let result = Self.toolMessage(request, answering: "call_pizza") {
        return .text(CloudRunTests.chat("no pizza: \(result)"))
      }
      return .text(Self.toolCall("order_pizza", id: "call_pizza", arguments: #"{"size": "large"}"#))
    }
    defer { server.stop() }
    let run = try await run(CloudRunTests.confident, route: "auto", server: server)
    #expect(run.status == 0, "\(run.stderr)")
    let answer = try #require(run.json["answer"] as? String)
    #expect(
      answer == "no pizza: no such skill; the skills are: timer_cancel, timer_start, weather_query")
    #expect(run.clauses.isEmpty, "only the first command ran")
    #expect(run.json["intent"] as? String == "timer.start")
  }

  @Test func aFailingSkillGoesBackAsAnErrorResult() async throws {
    let server = try LoopbackHTTPServer { request in
      if let result = Self.toolMessage(request, answering: "call_w") {
        let error = (try? JSONSerialization.jsonObject(with: Data(result.utf8))) as? [String: Any]
        return .text(CloudRunTests.chat("sorry: \(error?["error"] as? String ?? "?")"))
      }
      return .text(Self.toolCall("weather_query", id: "call_w", arguments: "{}"))
    }
    defer { server.stop() }
    let run = try await run(CloudRunTests.confident, route: "auto", server: server)
    let answer = try #require(run.json["answer"] as? String, "\(run.stderr)")
    #expect(answer.hasPrefix("sorry: no place was named"))
    #expect(run.clauses.count == 2)
    #expect(run.clauses.last?["intent"] as? String == "weather.query")
    #expect(run.clauses.last?["error"] as? String != nil)
  }

  @Test func aMalformedCallIsRejectedLikeAFirstCloudAnswer() async throws {
    let server = try LoopbackHTTPServer { request in
      if let result = Self.toolMessage(request, answering: "call_bad") {
        return .text(CloudRunTests.chat(result))
      }
      return .text(
        Self.toolCall("timer_start", id: "call_bad", arguments: #"{"duration": "not a time"}"#))
    }
    defer { server.stop() }
    let run = try await run(CloudRunTests.confident, route: "auto", server: server)
    let answer = try #require(run.json["answer"] as? String, "\(run.stderr)")
    #expect(answer.contains("\"error\""))
    #expect(answer.contains("duration"))
    #expect(run.clauses.isEmpty, "nothing ran for the rejected call")
  }

  @Test func withoutACloudModelTheAnswerIsTheSkillsOwnSentences() async throws {
    let run = try await run(CloudRunTests.confident, route: "auto", server: nil, json: false)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("关火"))
    #expect(!run.stdout.contains("intent "), "only the sentence, not the report")
    let json = try await self.run(CloudRunTests.confident, route: "local", server: nil)
    let answer = try #require(json.json["answer"] as? String)
    #expect(answer.contains("关火"))
  }
}

/// `intent run --events`: progress as JSON lines while the command runs, then the result.
struct RunEventsTests {
  @Test func eventsArePrintedAsJSONLinesInOrderBeforeTheResult() async throws {
    let cli = try CommandHarness()
    defer { cli.folder.remove() }
    let server = try LoopbackHTTPServer { request in
      request.path.hasPrefix("/v1/search")
        ? .text(OpenMeteoFixtures.hangzhou) : .text(OpenMeteoFixtures.forecast)
    }
    defer { server.stop() }
    let status = await cli.run(
      ["run", "--events", "--route", "local", "--now", CloudRunTests.now, "明天杭州会不会下雨"],
      environment: [
        "INTENT_WEATHER_URL": server.baseURL.absoluteString,
        "INTENT_GEOCODING_URL": server.baseURL.absoluteString,
      ], builtins: true)
    #expect(status == 0, "\(cli.stderr)")
    let lines = cli.stdout.split(separator: "\n").map(String.init)
    let events = lines.prefix { $0.hasPrefix("{") }.compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
    let names = events.map { event -> String in
      let name = event["event"] as? String ?? "?"
      return name == "step" ? "step \(event["step"] as? String ?? "?")" : name
    }
    #expect(
      names == [
        "parsing", "routed", "executing", "step started", "step progress", "step progress",
        "step finished", "finished",
      ])
    let texts = events.compactMap { $0["text"] as? String }
    #expect(texts.contains("查找“杭州”"))
    #expect(texts.contains("获取天气预报"))
    #expect(events.allSatisfy { ($0["clause"] as? Int ?? 0) == 0 })
    // The human-readable result follows the events.
    #expect(lines.dropFirst(events.count).first == "明天杭州会不会下雨")
  }
}

extension AnswerLoopTests {
  @Test func aModelThatNeverAnswersEndsAtTheCloudTimeoutWithTheResultsKept() async throws {
    let server = try LoopbackHTTPServer { _ in .hang }
    defer { server.stop() }
    let run = try await run(
      CloudRunTests.confident, route: "auto", server: server,
      environment: ["INTENT_LLM_TIMEOUT": "1"])
    #expect(run.status == 1)
    #expect(run.json["answer"] is NSNull)
    #expect((run.json["answer_error"] as? String)?.contains("cloud timeout") == true)
    #expect(run.json["intent"] as? String == "timer.start")
    #expect((run.json["result"] as? [String: Any])?["label"] as? String == "关火")
  }
}

extension AnswerLoopTests {
  /// A server-sent event stream of chat-completion deltas.
  static func eventStream(_ deltas: [[String: Any]], finish: String) throws -> String {
    var stream = ""
    for delta in deltas {
      let chunk: [String: Any] = [
        "choices": [["index": 0, "delta": delta, "finish_reason": NSNull()]]
      ]
      stream +=
        "data: "
        + String(decoding: try JSONSerialization.data(withJSONObject: chunk), as: UTF8.self)
      stream += "\n\n"
    }
    stream += #"data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "\#(finish)"}]}"#
    return stream + "\n\ndata: [DONE]\n\n"
  }

  @Test func aStreamedToolCallKeepsItsIDAcrossDeltas() async throws {
    func call(_ fields: [String: Any]) -> [String: Any] {
      ["tool_calls": [["index": 0].merging(fields) { $1 }]]
    }
    let toolStream = try Self.eventStream(
      [
        call([
          "id": "call_s1", "type": "function", "function": ["name": "timer_", "arguments": ""],
        ]),
        call(["function": ["name": "start", "arguments": #"{"durat"#]]),
        call(["function": ["arguments": #"ion": 45}"#]]),
      ], finish: "tool_calls")
    let answerStream = try Self.eventStream(
      [["content": "计时"], ["content": "已开始"]], finish: "stop")
    let server = try LoopbackHTTPServer { request in
      let body = Self.toolMessage(request, answering: "call_s1") == nil ? toolStream : answerStream
      return .text(body, contentType: "text/event-stream")
    }
    defer { server.stop() }
    let run = try await run(
      CloudRunTests.confident, route: "auto", server: server,
      environment: ["INTENT_LLM_STREAM": "1"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.json["answer"] as? String == "计时已开始")
    #expect(run.requests.count == 2)
    #expect((run.clauses.last?["slots"] as? [String: Any])?["duration"] as? Double == 45)
  }
}
