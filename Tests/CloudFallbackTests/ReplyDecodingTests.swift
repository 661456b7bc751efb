import Foundation
import TestSupport
import Testing

@testable import CloudFallback

/// Purify and lenient decode on strings, with a seeded fuzz test.
struct ReplyDecodingTests {
  @Test(arguments: [
    (
      "{'skill_id': 'a.b', 'input': {'text': 'it\\'s \"x\"'}}",
      #"{"skill_id": "a.b", "input": {"text": "it's \"x\""}}"#
    ),
    (
      "{skill_id: timer.start, input: {n: 1e3, ok: True, no: None}}",
      #"{"skill_id": "timer.start", "input": {"n": 1e3, "ok": true, "no": null}}"#
    ),
    ("{\"a\": 1, # note\n}", "{\"a\": 1 \n}"),
  ])
  func repairsWhatSmallModelsGetWrong(raw: String, expected: String) {
    #expect(ReplyPurifier.purify(raw) == expected)
  }

  @Test func skipsBracedProseBeforeTheObject() throws {
    let reply = try CloudReply.decode(
      #"Use {braces} like {this}: {"skill_id": "timer.start", "input": {"duration": 60}}"#)
    #expect(reply.intent == "timer.start")
    #expect(String(decoding: reply.slots, as: UTF8.self) == #"{"duration":60}"#)
  }

  @Test(arguments: ["skill_id", "Skill_ID", "skillId", "SKILL-ID", "intent", "Intent_Name"])
  func readsTheIntentUnderAnyKeySpelling(key: String) throws {
    #expect(try CloudReply.decode("{\"\(key)\": \"memo.create\"}").intent == "memo.create")
  }

  @Test func readsArgumentsSentAsAJSONString() throws {
    let reply = try CloudReply.decode(
      #"{"name": "timer.start", "arguments": "{\"duration\": \"90\"}"}"#)
    #expect(String(decoding: reply.slots, as: UTF8.self) == #"{"duration":"90"}"#)
  }

  @Test(arguments: [
    ("\"0.75\"", 0.75), ("\"80%\"", 0.8), ("2", nil), ("true", nil), ("\"high\"", nil),
  ])
  func confidenceIsReadFromNumbersAndStringsInRange(raw: String, expected: Double?) throws {
    #expect(
      try CloudReply.decode("{\"skill_id\": \"a.b\", \"confidence\": \(raw)}").confidence
        == expected)
  }

  @Test func nestingPastTheLimitIsRejectedByName() {
    let deep =
      "{\"a\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
    #expect(throws: CloudFallbackError.tooDeep(limit: ReplyPurifier.maximumDepth)) {
      try CloudReply.decode(deep)
    }
  }

  @Test func toolNamesMapBothWaysAndStayUnique() {
    let names = ToolNames(ids: ["timer.start", "timer_start", "天气.query"])
    #expect(names.functionName(for: "timer.start") == "timer_start")
    #expect(names.functionName(for: "timer_start") == "timer_start_2")
    #expect(names.functionName(for: "天气.query") == "___query")
    #expect(names.intentID(forFunction: "timer_start_2") == "timer_start")
    #expect(names.intentID(forFunction: "timer_start") == "timer.start")
    #expect(names.intentID(forFunction: "system_shutdown") == "system_shutdown")
  }

  @Test(arguments: [("0", 0.0), ("2.5", 2.5), ("soon", nil), ("-1", nil), ("", nil)])
  func retryAfterIsReadInSeconds(value: String, seconds: Double?) {
    #expect(
      OpenAICompatibleClient.retryAfter(value) == seconds.map { .milliseconds(Int64($0 * 1000)) })
  }

  @Test func retryAfterReadsAnHTTPDate() throws {
    let wait = try #require(OpenAICompatibleClient.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT"))
    #expect(wait == .zero)
  }

  @Test func everySplitOfAnEventStreamGivesTheSameEvents() {
    let stream = Array(
      "data: {\"a\": \"关火\"}\r\n\r\n: comment\ndata: one\ndata: two\n\ndata: [DONE]\n\n".utf8)
    expectEveryCut(of: stream, gives: ["{\"a\": \"关火\"}", "one\ntwo", "[DONE]"])
  }

  @Test func loneCarriageReturnsEndLinesAndEmptyEventsAreNotDispatched() {
    // A keep-alive `data:` event carries nothing; a server may end lines with CR alone.
    let stream = Array(
      "data:\n\ndata: {\"a\": 1}\r\rdata\rdata: x\r\r: ping\r\n\r\ndata: [DONE]\r".utf8)
    expectEveryCut(of: stream, gives: ["{\"a\": 1}", "\nx", "[DONE]"])
  }

  /// Feeds `stream` in two pieces, cut at every byte, and expects the same events each time.
  private func expectEveryCut(
    of stream: [UInt8], gives expected: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for cut in 0...stream.count {
      var parser = ServerSentEventParser()
      var events = parser.feed(stream[..<cut])
      events += parser.feed(stream[cut...])
      events += parser.finish()
      #expect(events == expected, "cut at byte \(cut)", sourceLocation: sourceLocation)
    }
  }

  @Test func streamedToolCallArgumentsAreJoined() throws {
    var answer = ChatAnswer()
    try answer.absorb(
      [
        "choices": [
          [
            "delta": [
              "tool_calls": [
                ["index": 0, "function": ["name": "timer_start", "arguments": "{\"dura"]]
              ]
            ]
          ]
        ]
      ],
      isDelta: true)
    try answer.absorb(
      [
        "choices": [
          [
            "delta": ["tool_calls": [["index": 0, "function": ["arguments": "tion\": 60}"]]]],
            "finish_reason": "tool_calls",
          ]
        ]
      ],
      isDelta: true)
    let text = answer.replyText(names: ToolNames(ids: ["timer.start"]))
    #expect(text == #"{"skill_id": "timer.start", "input": {"duration": 60}}"#)
    #expect(try CloudReply.decode(text).intent == "timer.start")
  }

  @Test func promptSetsTheTextApartAndEstimatesItsSize() {
    let prompt = CloudPrompt(
      choices: [
        .init(
          id: "timer.start", description: "start a timer.",
          slots: [.init(name: "duration", type: "duration", isRequired: true)],
          examples: ["a", "b", "c", "d"])
      ], now: Date(timeIntervalSince1970: 1_764_547_200),
      timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .gmt)
    #expect(
      prompt.system.contains("Now: 2025-12-01T08:00:00+08:00 (Monday), time zone Asia/Shanghai."))
    #expect(
      prompt.system.contains(
        "- timer.start: start a timer. Slots: duration (duration, required). E.g. \"a\"; \"b\"; \"c\"\n"
      ))
    #expect(
      CloudPrompt.userMessage(for: "hi </REQUEST> <request>") == "<request>\nhi  \n</request>")
    #expect(CloudPrompt.estimatedTokens(in: "abcdefgh三分钟") == 5)
    #expect(prompt.estimatedTokens > 100)
  }

  /// Random mixes of JSON punctuation, quotes, words and non-ASCII never crash the decoder.
  @Test func fuzzedRepliesNeverCrash() {
    var random = SeededGenerator(seed: 0xC10D)
    let pieces = [
      "{", "}", "[", "]", "\"", "'", ":", ",", "//", "/*", "*/", "#", "\\", "\n", " ", "skill_id",
      "timer.start", "input", "null", "True", "1e", "-", "0.5", "关", "🙂", "\u{0}", "```json", "`",
    ]
    for _ in 0..<3_000 {
      let count = Int.random(in: 0...60, using: &random)
      var raw = ""
      for _ in 0..<count { raw += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
      _ = ReplyPurifier.purify(raw)
      _ = try? CloudReply.decode(raw)
      _ = try? ChatAnswer.decode(body: Data(raw.utf8))
    }
  }
}
