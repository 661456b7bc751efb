import Foundation

extension Engine {
  /// Longest phrase read for one slot value, in Unicode scalars.
  public static let maximumSlotPhraseLength = 200

  /// Reads a value of `type` from a phrase ("tomorrow at 8", "十分钟", "杭州") the way slots are
  /// read in utterances: same normalisation, entity rules, time zone and clock.
  ///
  /// A `date` slot also takes a datetime. Returns nil when the phrase holds no such value.
  public func value(
    of type: EntityType, in phrase: String, context: ParseContext
  ) -> SlotValue? {
    let text = String(
      String.UnicodeScalarView(phrase.unicodeScalars.prefix(Self.maximumSlotPhraseLength)))
    let normalized = normalize(text)
    let entities = extractor.entities(in: normalized, context: context)
    let accepted: [EntityType] = type == .date ? [.date, .datetime] : [type]
    return entities.first { accepted.contains($0.type) }?.value
  }
}
