import Testing

@testable import IntentEngine

struct PayloadTextTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    var triggers: [String]
    var payload: String?
    var testDescription: String { "\(text) → \(payload ?? "nil")" }
  }

  /// Cuts the time expressions and the trigger words, as the engine does, and reads the rest.
  static func payload(_ c: Case) -> String? {
    let text = Normalizer().normalize(c.text)
    var cuts = EntityTestSupport.extractor.entities(
      in: text, context: EntityTestSupport.shanghaiMonday
    )
    .filter { $0.type == .datetime || $0.type == .duration }.map(\.range)
    let scalars = text.scalars
    for trigger in c.triggers {
      let needle = Normalizer().normalize(trigger).scalars
      guard needle.count <= scalars.count else { continue }
      for start in 0...(scalars.count - needle.count)
      where Array(scalars[start..<(start + needle.count)]) == needle {
        cuts.append(start..<(start + needle.count))
      }
    }
    return PayloadText.payload(in: text, removing: cuts)?.text
  }

  @Test(arguments: [
    Case(text: "明天早上八点提醒我买牛奶", triggers: ["提醒我"], payload: "买牛奶"),
    Case(text: "remind me to call mom at 5pm", triggers: ["remind me"], payload: "call mom"),
    Case(text: "提醒我明天下午三点去开会吧", triggers: ["提醒我"], payload: "去开会"),
    Case(text: "明天提醒我買兩瓶牛奶", triggers: ["提醒我"], payload: "買兩瓶牛奶"),
    Case(text: "三分钟后提醒我", triggers: ["提醒我"], payload: nil),
    // 给我 is politeness before a task, but "给我妈" is for the user's mother.
    Case(text: "明天提醒我给我交电费", triggers: ["提醒我"], payload: "交电费"),
    Case(text: "明天提醒我给我妈打电话", triggers: ["提醒我"], payload: "给我妈打电话"),
    Case(
      text: "remind me tomorrow at 8am to take the pills please", triggers: ["remind me"],
      payload: "take the pills"),
    Case(text: "记一下：周五交报告。", triggers: ["记一下"], payload: "交报告"),
    Case(
      text: "remind me at 5pm to call mom and at 6pm to cook", triggers: ["remind me"],
      payload: "call mom cook"),
  ])
  func keepsTheUsersOwnWordsWithoutTriggersTimesOrParticles(_ c: Case) {
    #expect(Self.payload(c) == c.payload)
  }

  @Test func rangeSpansFromTheFirstToTheLastPieceKept() throws {
    let text = Normalizer().normalize("提醒我买牛奶")
    let payload = try #require(PayloadText.payload(in: text, removing: [0..<3]))
    #expect(payload.text == "买牛奶")
    #expect(payload.range == 3..<6)
  }

  @Test func outOfBoundsRangesAreIgnored() {
    let text = Normalizer().normalize("买牛奶")
    #expect(PayloadText.payload(in: text, removing: [-5..<1, 2..<99])?.text == "牛")
    #expect(PayloadText.payload(in: Normalizer().normalize(""), removing: []) == nil)
  }

  /// Scoring trims one window without building its text; rendered, it must be what the full
  /// payload gives for the same cut, for every window of these sentences.
  @Test(arguments: [
    "明天早上八点提醒我买牛奶吧", "remind me to call mom please", "记一下 那个 门禁密码是1397", "把 鸡蛋 加到购物清单",
  ])
  func oneWindowTrimsLikeTheFullPayload(_ sentence: String) {
    let text = Normalizer().normalize(sentence)
    let n = text.scalars.count
    for lower in 0...n {
      for upper in lower...n {
        let full = PayloadText.payload(in: text, removing: [0..<lower, upper..<n])
        let window = PayloadText.trimmedWindow(lower..<upper, in: text)
        #expect(full?.range == window, "\(lower)..<\(upper)")
        #expect(full?.text == window.map { text.originalText(of: $0) }, "\(lower)..<\(upper)")
      }
    }
  }
}
