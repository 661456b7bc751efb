import Foundation
import IntentEngine

/// Renders parse results for people: intent, confidence, slots, route and why.
enum ResultFormatter {
  static func describe(_ result: ParseResult) -> String {
    var out = ""
    if result.clauses.count > 1 {
      out += "\(result.clauses.count) commands in '\(result.text)'\n"
      for (index, clause) in result.clauses.enumerated() {
        out += "\n[\(index + 1)] " + describeOne(clause)
      }
      return out
    }
    return describeOne(result)
  }

  private static func describeOne(_ result: ParseResult) -> String {
    var out = "\(result.text)\n"
    let confidence = format(result.confidence)
    if let intent = result.intent {
      out += "  intent        \(intent)\n"
    } else {
      out += "  intent        (none: not understood)\n"
    }
    out += "  confidence    \(confidence)\n"
    out += "  route         \(result.route.rawValue)\n"
    for slot in result.slots {
      out += "  slot          \(slot.name) = \(slot.json.jsonText)   ← '\(slot.source)'\n"
    }
    for name in result.missingSlots {
      out += "  missing       \(name)\n"
    }
    for evidence in result.explanation {
      let sign = evidence.contribution >= 0 ? "+" : ""
      let amount = evidence.contribution == 0 ? "" : "  \(sign)\(format(evidence.contribution))"
      out += "  why           \(evidence.detail)\(amount)\n"
    }
    for alternative in result.alternatives.dropFirst().prefix(3) {
      out += "  alternative   \(alternative.intent) \(format(alternative.confidence))\n"
    }
    return out
  }

  static func format(_ value: Double) -> String { Confidence.text(value, decimals: 3) }
}
