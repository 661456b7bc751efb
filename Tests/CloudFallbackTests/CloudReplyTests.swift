import CloudFallback
import Foundation
import Testing

struct CloudReplyTests {
  @Test(arguments: [
    (#"{"intent": "timer.start"}"#, #"{"intent": "timer.start"}"#),
    ("```json\n{\"intent\": \"a.b\"}\n```", #"{"intent": "a.b"}"#),
    ("Here you go: {\"a\": [1, 2,], } thanks", #"{"a": [1, 2] }"#),
    ("{\"a\": \"x // not a comment\" // a comment\n}", "{\"a\": \"x // not a comment\" \n}"),
    ("{\"a\": /* note */ 1}", #"{"a":  1}"#),
    (#"{"a": "brace } in string"}"#, #"{"a": "brace } in string"}"#),
  ])
  func purifiesTheFirstObject(raw: String, expected: String) {
    #expect(ReplyPurifier.purify(raw) == expected)
  }

  @Test(arguments: ["", "no json here", "{ unterminated", "[1, 2]"])
  func findsNoObjectInReplyWithoutOne(raw: String) {
    #expect(ReplyPurifier.purify(raw) == nil)
  }

  @Test func decodesLenientlyAcrossKeySpellings() throws {
    let reply = try CloudReply.decode(
      #"{"Skill_ID": "timer.start", "INPUT": {"duration": 60}, "Confidence": "0.8"}"#)
    #expect(reply.intent == "timer.start")
    #expect(String(decoding: reply.slots, as: UTF8.self) == #"{"duration":60}"#)
    #expect(reply.confidence == 0.8)
  }

  @Test func nullIntentMeansNoIntent() throws {
    #expect(try CloudReply.decode(#"{"intent": null}"#).intent == nil)
    #expect(try CloudReply.decode(#"{"intent": "null"}"#).intent == nil)
  }

  @Test func hostileRepliesBecomeErrorsNotCrashes() {
    #expect(throws: CloudFallbackError.noJSON) { try CloudReply.decode("🙂 sure") }
    #expect(throws: CloudFallbackError.malformedReply("'intent' is not a string")) {
      try CloudReply.decode(#"{"intent": 42}"#)
    }
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: CloudFallbackError.noJSON) { try CloudReply.decode(deep) }
    let huge = "{\"intent\": \"" + String(repeating: "x", count: 200_000) + "\"}"
    #expect(throws: CloudFallbackError.noJSON) { try CloudReply.decode(huge) }
  }

  @Test func configurationNeverPrintsTheKey() {
    let configuration = LLMConfiguration(environment: [
      "INTENT_LLM_BASE_URL": "https://api.example.com/v1", "INTENT_LLM_MODEL": "m",
      "INTENT_LLM_API_KEY": "sk-secret-123456", "INTENT_LLM_TIMEOUT": "2.5",
    ])
    #expect(configuration.isComplete)
    #expect(configuration.description == "model 'm' at api.example.com")
    #expect(configuration.timeout == .milliseconds(2500))
  }
}
