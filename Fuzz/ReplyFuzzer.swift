// libFuzzer target: the bytes as a chat-completion response body and as a model's reply text.
// Built and run by scripts/fuzz.sh; a crash is saved to Tests/CloudFallbackTests/FuzzRegressions/reply.
import Foundation

@testable import CloudFallback

/// The reply paths every input goes through; they keep no state between inputs.
enum ReplyFuzzer {
  /// Decodes one input the ways the cloud client does: envelope, purified object, lenient reply.
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let data = Data(buffer: bytes)
    var seen = 0
    if let answer = try? ChatAnswer.decode(body: data) {
      seen += answer.toolCalls.count + reply(answer.content)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    seen += ReplyPurifier.purify(text)?.utf8.count ?? 0
    return seen + reply(text)
  }

  /// Decodes a model's reply text leniently and checks what a decoded reply promises.
  static func reply(_ text: String) -> Int {
    guard let reply = try? CloudReply.decode(text) else { return 0 }
    precondition(reply.confidence.map { (0...1).contains($0) } ?? true)
    precondition(
      (try? JSONSerialization.jsonObject(with: reply.slots)) is [String: Any],
      "decoded slots are not a JSON object")
    return reply.slots.count + (reply.intent?.utf8.count ?? 0) + reply.purified.utf8.count
  }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data else { return 0 }
  precondition(ReplyFuzzer.run(UnsafeBufferPointer(start: data, count: size)) >= 0)
  return 0
}
