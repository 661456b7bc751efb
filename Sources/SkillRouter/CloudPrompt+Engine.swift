public import CloudFallback
public import IntentEngine

extension CloudPrompt {
  /// The intents as the cloud prompt lists them, with up to three examples each.
  public static func choices(for engine: Engine) -> [CloudPrompt.IntentChoice] {
    var examples: [IntentID: [String]] = [:]
    for example in engine.grammar.examples where !example.isCounterexample {
      examples[example.intent, default: []].append(example.text)
    }
    return engine.intents.map { spec in
      let all = examples[spec.id] ?? []
      // One example per language first, so a bilingual intent shows both.
      let chinese = all.first { $0.unicodeScalars.contains { !$0.isASCII } }
      let english = all.first { $0.unicodeScalars.allSatisfy(\.isASCII) }
      var chosen = [chinese, english].compactMap { $0 }
      for text in all where chosen.count < CloudPrompt.examplesPerIntent && !chosen.contains(text) {
        chosen.append(text)
      }
      return CloudPrompt.IntentChoice(
        id: spec.id.rawValue, description: spec.description,
        slots: spec.slots.map {
          CloudPrompt.Slot(name: $0.name, type: $0.type.rawValue, isRequired: $0.isRequired)
        }, examples: chosen)
    }
  }
}
