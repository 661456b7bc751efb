// libFuzzer target: the bytes as a server-sent event stream, read as the cloud client reads a
// streamed reply (INTENT_LLM_STREAM on): ServerSentEventParser, StreamAssembler, ChatAnswer.
// Built and run by scripts/fuzz.sh; a crash is saved to Tests/CloudFallbackTests/FuzzRegressions/sse.
import Foundation

@testable import CloudFallback

/// The stream paths every input goes through; they keep no state between inputs.
enum SSEFuzzer {
  /// Function names for a few built-in intents, as the client offers them as tools.
  static let names = ToolNames(ids: [
    "timer.start", "timer.cancel", "reminder.create", "memo.create", "weather.query",
  ])

  /// Reads one input whole and in chunks and checks that the chunking changed nothing.
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let chunks = chunks(of: bytes)
    var whole = ServerSentEventParser()
    let wholeEvents = whole.feed(bytes) + whole.finish()
    var split = ServerSentEventParser()
    var splitEvents: [String] = []
    for chunk in chunks { splitEvents += split.feed(chunk) }
    splitEvents += split.finish()
    // Bytes are buffered until a line ends, so where the network cuts the stream changes nothing.
    precondition(wholeEvents == splitEvents, "a chunk boundary changed the events")
    precondition(whole.isOverlong == split.isOverlong)

    let wholeAnswer = StreamAssembler.answer(from: [bytes[...]])
    let splitAnswer = StreamAssembler.answer(from: chunks)
    precondition(wholeAnswer == splitAnswer, "a chunk boundary changed the assembled answer")
    switch splitAnswer {
    case .success(let answer):
      precondition(answer.hasChoice, "an answer without a choice was accepted")
      let text = answer.replyText(names: names)
      var seen = text.utf8.count + (ReplyPurifier.purify(text)?.utf8.count ?? 0)
      if let reply = try? CloudReply.decode(text) {
        precondition(reply.confidence.map { (0...1).contains($0) } ?? true)
        seen += reply.slots.count + (reply.intent?.utf8.count ?? 0)
      }
      return seen + wholeEvents.count
    case .failure(let error):
      // A refused stream always says why.
      precondition(!error.description.isEmpty)
      return error.description.utf8.count + wholeEvents.count
    }
  }

  /// The input cut where its own bytes say: each chunk is 1 to 16 bytes long, so boundaries
  /// fall inside UTF-8 characters, between `\r` and `\n` and inside `data:`.
  static func chunks(of bytes: UnsafeBufferPointer<UInt8>) -> [Slice<UnsafeBufferPointer<UInt8>>] {
    var chunks: [Slice<UnsafeBufferPointer<UInt8>>] = []
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + Int(bytes[start] & 15) + 1)
      chunks.append(bytes[start..<end])
      start = end
    }
    return chunks
  }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  precondition(SSEFuzzer.run(UnsafeBufferPointer(start: data, count: size)) >= 0)
  return 0
}
