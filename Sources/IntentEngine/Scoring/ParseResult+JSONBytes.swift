extension ParseResult {
  /// Appends the result as one line of compact JSON, the same text as `json(...).jsonText`.
  ///
  /// Written straight from the result, with no intermediate value, for bulk output.
  /// - Complexity: O(n) in the size of the output.
  public func writeJSON(to writer: inout JSONByteWriter, includeExplanation: Bool) {
    writer.raw("{\"text\":")
    writer.string(text)
    writer.raw(",\"intent\":")
    if let intent { writer.string(intent.rawValue) } else { writer.raw("null") }
    writer.raw(",\"confidence\":")
    writer.number(Self.rounded(confidence))
    writer.raw(",\"route\":")
    writer.string(route.rawValue)
    writer.raw(",\"slots\":{")
    for (index, slot) in slots.enumerated() {
      if index > 0 { writer.byte(0x2C) }
      writer.string(slot.name)
      writer.byte(0x3A)
      writer.value(slot.json)
    }
    writer.byte(0x7D)
    if !missingSlots.isEmpty {
      writer.raw(",\"missing_slots\":[")
      for (index, name) in missingSlots.enumerated() {
        if index > 0 { writer.byte(0x2C) }
        writer.string(name)
      }
      writer.byte(0x5D)
      if let prompt {
        writer.raw(",\"prompt\":")
        writer.string(prompt)
      }
    }
    writer.raw(",\"alternatives\":[")
    for (index, alternative) in alternatives.enumerated() {
      if index > 0 { writer.byte(0x2C) }
      writer.raw("{\"intent\":")
      writer.string(alternative.intent.rawValue)
      writer.raw(",\"confidence\":")
      writer.number(Self.rounded(alternative.confidence))
      writer.byte(0x7D)
    }
    writer.byte(0x5D)
    if includeExplanation {
      writer.raw(",\"normalized\":")
      writer.string(normalizedText)
      writer.raw(",\"score\":")
      writer.number(Self.rounded(score))
      writer.raw(",\"explanation\":[")
      for (index, evidence) in explanation.enumerated() {
        if index > 0 { writer.byte(0x2C) }
        writer.raw("{\"kind\":")
        writer.string(evidence.kind.rawValue)
        writer.raw(",\"detail\":")
        writer.string(evidence.detail)
        writer.raw(",\"contribution\":")
        writer.number(Self.rounded(evidence.contribution))
        writer.byte(0x7D)
      }
      writer.byte(0x5D)
    }
    if clauses.count > 1 {
      writer.raw(",\"clauses\":[")
      for (index, clause) in clauses.enumerated() {
        if index > 0 { writer.byte(0x2C) }
        clause.writeJSON(to: &writer, includeExplanation: includeExplanation)
      }
      writer.byte(0x5D)
    }
    writer.byte(0x7D)
  }
}
