import Foundation
import TestSupport
import Testing

@testable import CloudFallback

/// Replays the inputs saved by `scripts/fuzz.sh reply` and `scripts/fuzz.sh sse`, as those
/// targets run them.
struct FuzzRegressionTests {
  @Test(arguments: ["reply", "sse"])
  func savedInputsExist(target: String) {
    #expect(!FuzzRegressionInput.saved(for: target, in: "CloudFallbackTests").isEmpty)
  }

  @Test(arguments: FuzzRegressionInput.saved(for: "reply", in: "CloudFallbackTests"))
  func savedReplyDecodesOrIsRefused(_ input: FuzzRegressionInput) {
    if let answer = try? ChatAnswer.decode(body: Data(input.bytes)) {
      check(answer.content)
    }
    _ = ReplyPurifier.purify(input.text)
    check(input.text)
  }

  /// A decoded reply holds a probability or nothing, and its slots are a JSON object.
  func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let reply = try? CloudReply.decode(text) else { return }
    #expect(reply.confidence.map { (0...1).contains($0) } ?? true, sourceLocation: sourceLocation)
    #expect(
      (try? JSONSerialization.jsonObject(with: reply.slots)) is [String: Any],
      sourceLocation: sourceLocation)
  }

  @Test(arguments: FuzzRegressionInput.saved(for: "sse", in: "CloudFallbackTests"))
  func savedStreamReadsTheSameInChunks(_ input: FuzzRegressionInput) {
    // Cut where the input's own bytes say, as the fuzz target does: 1 to 16 bytes a chunk.
    var chunks: [ArraySlice<UInt8>] = []
    var start = 0
    while start < input.bytes.count {
      let end = min(input.bytes.count, start + Int(input.bytes[start] & 15) + 1)
      chunks.append(input.bytes[start..<end])
      start = end
    }
    var whole = ServerSentEventParser()
    let wholeEvents = whole.feed(input.bytes) + whole.finish()
    var split = ServerSentEventParser()
    var splitEvents: [String] = []
    for chunk in chunks { splitEvents += split.feed(chunk) }
    splitEvents += split.finish()
    #expect(splitEvents == wholeEvents)

    let wholeAnswer = StreamAssembler.answer(from: [input.bytes[...]])
    let splitAnswer = StreamAssembler.answer(from: chunks)
    #expect(splitAnswer == wholeAnswer)
    switch splitAnswer {
    case .success(let answer):
      #expect(answer.hasChoice)
      check(answer.replyText(names: ToolNames(ids: ["timer.start", "reminder.create"])))
    case .failure(let error):
      #expect(!error.description.isEmpty)
    }
  }
}
