import Foundation
import TestSupport
import Testing

@testable import CloudFallback

/// Replays the inputs saved by `scripts/fuzz.sh reply`, as that target runs them.
struct FuzzRegressionTests {
  @Test func savedInputsExist() {
    #expect(!FuzzRegressionInput.saved(for: "reply", in: "CloudFallbackTests").isEmpty)
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
}
