/// Folds text to the form grammars are matched in.
public struct Normalizer: Sendable {
  /// Creates a normaliser.
  public init() {}

  /// Returns the normalised text with its map back to the original.
  public func normalize(_ text: String) -> NormalizedText {
    var scalars: [Unicode.Scalar] = []
    var starts: [Int32] = []
    var ends: [Int32] = []
    var numbers: [NumberSpan] = []
    var offset: Int32 = 0
    var digitStart: Int?
    for scalar in text.unicodeScalars {
      var s = scalar
      if (0xFF01...0xFF5E).contains(s.value), let half = Unicode.Scalar(s.value - 0xFEE0) { s = half }
      if ("A"..."Z").contains(s), let lower = Unicode.Scalar(s.value + 32) { s = lower }
      if s.value < 0x20 || s == "\u{3000}" || s == "," || s == "，" || s == "。" { s = " " }
      if s == " ", scalars.last == " " || scalars.isEmpty {
        offset += 1
        continue
      }
      if ("0"..."9").contains(s) {
        if digitStart == nil { digitStart = scalars.count }
      } else if let start = digitStart {
        numbers.append(NumberSpan(range: start..<scalars.count, value: Self.value(scalars[start...])))
        digitStart = nil
      }
      scalars.append(s)
      starts.append(offset)
      ends.append(offset + 1)
      offset += 1
    }
    if let start = digitStart {
      numbers.append(NumberSpan(range: start..<scalars.count, value: Self.value(scalars[start...])))
    }
    if scalars.last == " " {
      scalars.removeLast()
      starts.removeLast()
      ends.removeLast()
    }
    return NormalizedText(
      original: text, scalars: scalars, sourceStarts: starts, sourceEnds: ends, numbers: numbers)
  }

  private static func value(_ digits: ArraySlice<Unicode.Scalar>) -> Double {
    digits.reduce(0) { $0 * 10 + Double($1.value - 48) }
  }
}
