/// Step 4 of normalisation: reads numbers and renders them as ASCII digits.
///
/// Renderings, which the tokenizer and the entity extractors rely on:
/// - Arabic digits are copied as typed (`05` stays `05`), decimals keep their point (`1.5`).
/// - Chinese numerals and English number words become the integer's digits: 十五 → `15`,
///   一百零五 → `105`, 两 → `2`, 一千二 → `1200`, "twenty-five" → `25`. A run of digit characters
///   without units reads digit by digit: 二零二六 → `2026`, 零五 → `05`.
/// - A Chinese multiplier after Arabic digits folds in: `3万` → `30000`, `1.5万` → `15000`.
/// - Ranges render as `low-high` and carry `upperBound`: 两三 → `2-3`, 三五 → `3-5`,
///   十五六 → `15-16`, 二三十 → `20-30`, "two or three" / "2 or 3" → `2-3`; a typed `2-3` is a
///   range too when both ends are integers below 1000 and it is not part of a date (`2026-12-25`).
/// - Chinese runs longer than 24 characters, values of 10^15 and above, and words that only look
///   numeric (see `ChineseNumerals.protectedWords`) are copied unchanged.
struct NumeralReader {
  let base: ScalarBuffer
  private(set) var numbers: [NumberSpan] = []
  /// The output once it differs from the base; until then it is the base's first
  /// `sharedPrefix` scalars, read from the base's own arrays, not copied.
  private var output: ScalarBuffer?
  private var sharedPrefix = 0

  /// The normalised scalars.
  var scalars: [Unicode.Scalar] { output?.scalars ?? shared(base.scalars) }
  /// Each normalised scalar's first source offset.
  var starts: [Int32] { output?.starts ?? shared(base.starts) }
  /// Each normalised scalar's source end.
  var ends: [Int32] { output?.ends ?? shared(base.ends) }

  private func shared<Element>(_ array: [Element]) -> [Element] {
    sharedPrefix == array.count ? array : Array(array[..<sharedPrefix])
  }

  private var outputCount: Int { output?.count ?? sharedPrefix }

  /// A number found in the base text, not yet emitted.
  private struct Parsed {
    var value: Double
    var upperBound: Double?
    /// One past the last base scalar of the number.
    var end: Int
    /// Whether the base scalars are already the rendering (typed Arabic digits).
    var copiesSource: Bool
    /// The digits to write instead of the value, for digit-by-digit readings such as 零五 → `05`.
    var rendering: String? = nil
  }

  /// The outcome of looking at a numeral character.
  private enum ChineseResult {
    case number(Parsed)
    /// Not a number: copy the base scalars up to this offset unchanged.
    case literal(end: Int)
  }

  /// The longest Chinese numeral run read as one number; longer runs are copied unchanged.
  private static let maxChineseRun = 24
  /// Values at or above this are not rendered as digits (they would need an exponent).
  private static let maxRenderedValue = 1e15

  init(base: ScalarBuffer) {
    self.base = base
  }

  mutating func read() {
    let s = base.scalars
    var i = 0
    while i < s.count {
      let v = s[i].value
      if isASCIIDigit(v) {
        var parsed = parseArabic(at: i)
        extendWithOrRange(&parsed)
        emit(parsed, from: i)
        i = parsed.end
      } else if isASCIILetter(v) {
        let wordEnd = endOfWord(from: i)
        if i == 0 || !isASCIIAlphanumeric(s[i - 1].value), var parsed = parseWords(at: i) {
          extendWithOrRange(&parsed)
          emit(parsed, from: i)
          i = parsed.end
        } else {
          copy(i..<wordEnd)
          i = wordEnd
        }
      } else if v >= 0x4E00, v < 0xA000, ChineseNumerals.kind(of: v) != nil {
        switch parseChinese(at: i) {
        case .number(var parsed):
          extendWithOrRange(&parsed)
          emit(parsed, from: i)
          i = parsed.end
        case .literal(let end):
          copy(i..<end)
          i = end
        }
      } else {
        copy(i..<(i + 1))
        i += 1
      }
    }
  }

  // MARK: Emitting

  /// Copies base scalars unchanged.
  ///
  /// The base is read in order, so while nothing has been rewritten, `range` starts where the
  /// shared prefix ends and only extends it.
  private mutating func copy(_ range: Range<Int>) {
    guard output != nil else {
      sharedPrefix = range.upperBound
      return
    }
    for k in range {
      output?.append(base.scalars[k], base.starts[k], base.ends[k])
    }
  }

  private mutating func emit(_ parsed: Parsed, from start: Int) {
    if !parsed.copiesSource, start > 0, isASCIILetter(base.scalars[start - 1].value),
      isCJKIdeograph(base.scalars[start].value)
    {
      // A Chinese numeral typed against an English word ("set个timer七分钟") is a word of its
      // own: as digits it would run on into the letters ("timer7").
      startRewriting()
      output?.append(" ", base.starts[start], base.starts[start])
    }
    let spanStart = outputCount
    if parsed.copiesSource {
      copy(start..<parsed.end)
    } else {
      startRewriting()
      let sourceStart = base.starts[start]
      let sourceEnd = base.ends[parsed.end - 1]
      var text = parsed.rendering ?? Self.render(parsed.value)
      if let upper = parsed.upperBound { text += "-" + Self.render(upper) }
      for scalar in text.unicodeScalars {
        output?.append(scalar, sourceStart, sourceEnd)
      }
    }
    numbers.append(
      NumberSpan(
        range: spanStart..<outputCount, value: parsed.value, upperBound: parsed.upperBound))
  }

  /// Makes the output its own buffer at the first rewrite: until then it follows the base.
  private mutating func startRewriting() {
    guard output == nil else { return }
    var buffer = ScalarBuffer(capacity: base.count + 8)
    for k in 0..<sharedPrefix {
      buffer.append(base.scalars[k], base.starts[k], base.ends[k])
    }
    output = buffer
  }

  /// Renders a value below `maxRenderedValue` without exponent.
  static func render(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < maxRenderedValue { return String(Int64(value)) }
    return String(value)
  }

  // MARK: Arabic digits

  private func parseArabic(at i: Int) -> Parsed {
    let s = base.scalars
    var (value, j) = readDigits(from: i)
    var isInteger = true
    if j + 1 < s.count, s[j] == ".", isASCIIDigit(s[j + 1].value) {
      isInteger = false
      var scale = 0.1
      j += 1
      while j < s.count, isASCIIDigit(s[j].value) {
        value += Double(s[j].value - 0x30) * scale
        scale /= 10
        j += 1
      }
    }
    if j < s.count, let multiplier = ChineseNumerals.multiplierAfterDigits(s[j].value) {
      let folded = value * multiplier
      if folded < Self.maxRenderedValue, folded == folded.rounded() {
        return Parsed(value: folded, end: j + 1, copiesSource: false)
      }
    }
    // A typed range "2-3", unless it is part of a date such as 2026-12-25.
    if isInteger, value < 1000, j + 1 < s.count, s[j] == "-", isASCIIDigit(s[j + 1].value),
      !(i >= 2 && s[i - 1] == "-" && isASCIIDigit(s[i - 2].value))
    {
      let (upper, k) = readDigits(from: j + 1)
      let isChained =
        k + 1 < s.count && (s[k] == "-" || s[k] == ".") && isASCIIDigit(s[k + 1].value)
      if !isChained, upper < 1000, upper > value {
        return Parsed(value: value, upperBound: upper, end: k, copiesSource: true)
      }
    }
    return Parsed(value: value, end: j, copiesSource: true)
  }

  /// The value of the digit run at `i` and the offset past it; runs beyond 15 digits are parsed
  /// as text so that a long number is the nearest double, not an accumulation of rounding errors.
  private func readDigits(from i: Int) -> (Double, Int) {
    let s = base.scalars
    var value = 0.0
    var j = i
    while j < s.count, isASCIIDigit(s[j].value) {
      value = value * 10 + Double(s[j].value - 0x30)
      j += 1
    }
    if j - i > 15 {
      var text = ""
      text.unicodeScalars.append(contentsOf: s[i..<j])
      value = Double(text) ?? .infinity
    }
    return (value, j)
  }

  // MARK: Ranges with "or"

  /// Turns "2 or 3" / "two or three" into one range when the second number is larger.
  private func extendWithOrRange(_ parsed: inout Parsed) {
    let s = base.scalars
    let j = parsed.end
    guard parsed.upperBound == nil, j + 4 < s.count, s[j] == " ", s[j + 1] == "o", s[j + 2] == "r",
      s[j + 3] == " "
    else { return }
    let k = j + 4
    let second: Parsed?
    if isASCIIDigit(s[k].value) {
      let (value, end) = readDigits(from: k)
      second =
        end < s.count && s[end] == "." ? nil : Parsed(value: value, end: end, copiesSource: true)
    } else if isASCIILetter(s[k].value) {
      second = parseWords(at: k)
    } else {
      second = nil
    }
    guard let second, second.upperBound == nil, second.value > parsed.value,
      parsed.value == parsed.value.rounded()
    else { return }
    parsed = Parsed(
      value: parsed.value, upperBound: second.value, end: second.end, copiesSource: false)
  }

  // MARK: English words

  private func endOfWord(from i: Int) -> Int {
    let s = base.scalars
    var j = i
    while j < s.count, isASCIILetter(s[j].value) || s[j] == "'" || s[j] == "." { j += 1 }
    return j
  }

  /// The number word starting at `i` and the offset past it, if the letters form exactly one.
  private func numberWord(at i: Int) -> (code: Int32, end: Int)? {
    let s = base.scalars
    var j = i
    while j < s.count, isASCIILetter(s[j].value) { j += 1 }
    guard j - i >= 3, j - i <= 9, j == s.count || !isASCIIAlphanumeric(s[j].value) && s[j] != "'"
    else { return nil }
    guard let code = EnglishNumerals.words.value(for: s[i..<j]) else { return nil }
    return (code, j)
  }

  /// Reads "twenty five", "one hundred and five", "ten thousand"; nil when `i` starts no number.
  private func parseWords(at i: Int) -> Parsed? {
    // "a hundred", "a thousand": the article counts as one.
    let s = base.scalars
    if s[i] == "a", i + 1 < s.count, s[i + 1] == " ", let scale = wordAfterSpace(i + 1),
      scale.code == EnglishNumerals.hundred || scale.code == EnglishNumerals.thousand
    {
      var value: Double = scale.code == EnglishNumerals.hundred ? 100 : 1000
      var end = scale.end
      var next = end
      if let and = andAfterSpace(next) { next = and }
      if next + 1 < s.count, s[next] == " ", let rest = parseHundreds(at: next + 1),
        rest.value < value
      {
        value += rest.value
        end = rest.end
      }
      return Parsed(value: value, end: end, copiesSource: false)
    }
    guard let first = numberWord(at: i) else { return nil }
    if first.code == EnglishNumerals.one, isAfterDeterminer(i), !isFollowedByNumberWord(first.end) {
      return nil
    }
    guard var (value, end) = parseHundreds(at: i) else { return nil }
    if let scale = wordAfterSpace(end),
      scale.code == EnglishNumerals.thousand
        || scale.code == EnglishNumerals.million
    {
      value *= scale.code == EnglishNumerals.thousand ? 1000 : 1_000_000
      end = scale.end
      var next = end
      if let and = andAfterSpace(next) { next = and }
      if next + 1 < base.scalars.count, base.scalars[next] == " ",
        let rest = parseHundreds(at: next + 1)
      {
        value += rest.value
        end = rest.end
      }
    }
    return Parsed(value: value, end: end, copiesSource: false)
  }

  /// Reads a number below 1000 in words.
  private func parseHundreds(at i: Int) -> (value: Double, end: Int)? {
    guard var (value, end) = parseBelowHundred(at: i) else { return nil }
    if let scale = wordAfterSpace(end), scale.code == EnglishNumerals.hundred {
      value *= 100
      end = scale.end
      var next = end
      if let and = andAfterSpace(next) { next = and }
      if next + 1 < base.scalars.count, base.scalars[next] == " ",
        let rest = parseBelowHundred(at: next + 1)
      {
        value += rest.value
        end = rest.end
      }
    }
    return (value, end)
  }

  private func parseBelowHundred(at i: Int) -> (value: Double, end: Int)? {
    guard let word = numberWord(at: i), word.code >= 0 else { return nil }
    if word.code >= 20, word.code % 10 == 0, let unit = wordAfterSpace(word.end), unit.code >= 1,
      unit.code <= 9
    {
      return (Double(word.code + unit.code), unit.end)
    }
    return (Double(word.code), word.end)
  }

  private func wordAfterSpace(_ j: Int) -> (code: Int32, end: Int)? {
    let s = base.scalars
    guard j + 1 < s.count, s[j] == " ", isASCIILetter(s[j + 1].value) else { return nil }
    return numberWord(at: j + 1)
  }

  /// The offset after " and" when `j` is followed by it.
  private func andAfterSpace(_ j: Int) -> Int? {
    let s = base.scalars
    guard j + 4 <= s.count, s[j] == " ", s[j + 1] == "a", s[j + 2] == "n", s[j + 3] == "d",
      j + 4 == s.count || !isASCIIAlphanumeric(s[j + 4].value)
    else { return nil }
    guard wordAfterSpace(j + 4).map({ $0.code >= 0 }) == true else { return nil }
    return j + 4
  }

  private func isFollowedByNumberWord(_ j: Int) -> Bool {
    wordAfterSpace(j).map { $0.code < 0 } ?? false
  }

  /// Whether the word before `i` makes "one" a pronoun: "this one", "no one", "the one".
  private func isAfterDeterminer(_ i: Int) -> Bool {
    let s = base.scalars
    guard i >= 2, s[i - 1] == " " else { return false }
    var k = i - 1
    while k > 0, isASCIILetter(s[k - 1].value) { k -= 1 }
    guard k < i - 1 else { return false }
    return EnglishNumerals.determiners.value(for: s[k..<(i - 1)]) != nil
  }

  // MARK: Chinese numerals

  private func parseChinese(at i: Int) -> ChineseResult {
    let s = base.scalars
    // Idioms, function words and place names that merely contain a numeral.
    for back in 0...2 where i - back >= 0 {
      if let match = ChineseNumerals.protectedWords.longestMatch(in: s, from: i - back),
        match.end > i
      {
        return .literal(end: match.end)
      }
    }
    let v = s[i].value
    // The numeral of a weekday: 周一, 星期三, 礼拜六.
    if ChineseNumerals.weekdayDigits.contains(v), isAfterWeekWord(i) {
      return .literal(end: i + 1)
    }
    // 一点 meaning "a little" (快一点, 有一点, 一点点) rather than one o'clock.
    if v == 0x4E00, i + 1 < s.count, s[i + 1] == "点", !isClockOne(i) {
      return .literal(end: i + 2)
    }
    // 十分 meaning "very", unless minutes: 十分钟, 三点十分, 差十分九点.
    if v == 0x5341, i + 1 < s.count, s[i + 1] == "分",
      !(i + 2 < s.count && (s[i + 2] == "钟" || s[i + 2] == "中")),
      !(i >= 1 && (s[i - 1] == "点" || s[i - 1] == "差"))
    {
      return .literal(end: i + 2)
    }
    guard let first = ChineseNumerals.kind(of: v), !first.isLargeUnit else {
      return .literal(end: i + 1)
    }
    var j = i
    while j < s.count, ChineseNumerals.kind(of: s[j].value) != nil { j += 1 }
    guard j - i <= Self.maxChineseRun else { return .literal(end: j) }
    let tokens = (i..<j).compactMap { ChineseNumerals.kind(of: s[$0].value) }
    guard let parsed = ChineseNumerals.value(of: tokens), parsed.value < Self.maxRenderedValue,
      (parsed.upper ?? 0) < Self.maxRenderedValue
    else { return .literal(end: j) }
    return .number(
      Parsed(
        value: parsed.value, upperBound: parsed.upper, end: j, copiesSource: false,
        rendering: parsed.digitString))
  }

  private func isAfterWeekWord(_ i: Int) -> Bool {
    let s = base.scalars
    if i >= 1, s[i - 1] == "周" { return true }
    guard i >= 2 else { return false }
    return (s[i - 2] == "星" && s[i - 1] == "期") || (s[i - 2] == "礼" && s[i - 1] == "拜")
  }

  /// Whether 一点 at `i` is a clock time rather than "a little".
  private func isClockOne(_ i: Int) -> Bool {
    let s = base.scalars
    if i + 2 < s.count, s[i + 2] == "儿" || s[i + 2] == "点" || s[i + 2] == "也" || s[i + 2] == "都" {
      return false
    }
    guard i >= 1 else { return true }
    let previous = s[i - 1].value
    if ChineseNumerals.littleBefore.contains(previous) {
      // 今晚一点 and 明早一点 are clock times; 晚一点 and 早一点 are "a bit later/earlier".
      if (previous == 0x665A || previous == 0x65E9), i >= 2,
        ChineseNumerals.dayBeforePart.contains(s[i - 2].value)
      {
        return true
      }
      return false
    }
    return true
  }
}
