import IntentEngine

/// The question that asks for a required slot the user (or the cloud model) left out.
enum FollowUpQuestion {
  /// The question for `slot` in the language of `text` (Chinese when it holds a Han character).
  static func text(for slot: SlotSpec, utterance text: String) -> String {
    let isChinese = text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }
    switch slot.type {
    case .duration: return isChinese ? "要计时多久？" : "For how long?"
    case .datetime: return isChinese ? "什么时候？" : "When?"
    case .date: return isChinese ? "哪一天？" : "Which day?"
    case .location: return isChinese ? "哪里？" : "Where?"
    case .number: return isChinese ? "多少？" : "How many?"
    case .text, .metric, .period:
      return isChinese ? "具体是什么？" : "What exactly?"
    }
  }
}
