public import Foundation

/// The place names the engine recognises.
public struct Gazetteer: Sendable {
  /// Every normalised surface form.
  public var surfaceForms: [String] { [] }

  /// Loads the bundled gazetteer.
  public static func builtin() throws(GrammarError) -> Gazetteer { Gazetteer() }

  /// Loads a gazetteer file.
  public static func load(contentsOf url: URL, path: String) throws(GrammarError) -> Gazetteer {
    Gazetteer()
  }
}

/// Finds numbers and durations in normalised text.
public struct EntityExtractor: Sendable {
  /// Creates an extractor.
  public init(gazetteer: Gazetteer) {}

  /// All entities found, sorted by range start.
  public func entities(in text: NormalizedText, context: ParseContext) -> [Entity] {
    var found: [Entity] = []
    let units: [(String, Double)] = [
      ("分钟", 60), ("小时", 3600), ("秒", 1), ("minutes", 60), ("minute", 60), ("min", 60),
      ("hours", 3600), ("hour", 3600), ("seconds", 1), ("second", 1),
    ]
    for number in text.numbers {
      var i = number.range.upperBound
      while i < text.scalars.count, text.scalars[i] == " " { i += 1 }
      for (unit, seconds) in units {
        let u = Array(unit.unicodeScalars)
        if i + u.count <= text.scalars.count, Array(text.scalars[i..<(i + u.count)]) == u {
          found.append(
            Entity(
              type: .duration, range: number.range.lowerBound..<(i + u.count),
              value: .duration(seconds: number.resolvedValue * seconds)))
          break
        }
      }
    }
    return found
  }
}

/// The free payload of reminders, memos and timers.
public enum PayloadText {
  /// What remains once `removed` ranges are cut out, in the user's own words.
  public static func payload(in text: NormalizedText, removing removed: [Range<Int>]) -> (
    text: String, range: Range<Int>
  )? {
    var keep = [Bool](repeating: true, count: text.scalars.count)
    for range in removed {
      for i in range where i < keep.count { keep[i] = false }
    }
    for (i, s) in text.scalars.enumerated() where s == " " { keep[i] = false }
    guard let first = keep.firstIndex(of: true), let last = keep.lastIndex(of: true) else {
      return nil
    }
    let range = first..<(last + 1)
    return (text.originalText(of: range), range)
  }
}
