/// One unit of normalised text as the time and duration parsers see it.
struct EntityToken {
  enum Kind {
    /// A number read by the normaliser; the index into `NormalizedText.numbers`.
    case number(Int)
    case word(LexiconWord)
    /// `8:10`; `isValid` is false for `25:99`; `isTwentyFourHour` for a zero-padded hour (`06:00`).
    case clock(hour: Int, minute: Int, isValid: Bool, isTwentyFourHour: Bool)
    /// `12/25`, `12/25/2026` or `2026-12-25`.
    case date(year: Int?, month: Int, day: Int)
    /// Anything else: a run of other scalars.
    case other
  }

  var kind: Kind
  var range: Range<Int>
  /// Whether the token follows the previous one with no space between ("5min", "8点").
  var isAttached: Bool
}

/// Splits normalised text into entity tokens.
enum EntityTokenizer {
  /// Tokens of `text`, in order; spaces are dropped.
  ///
  /// - Complexity: O(n · k) for n scalars and the longest lexicon word k.
  /// The most tokens a first buffer holds: malloc serves blocks up to about 1 KiB from a
  /// per-thread cache, and a larger first guess costs more than growing later (−1.5k
  /// instructions per parse).
  static let cachedCapacity = max(4, (1_000 - 32) / MemoryLayout<EntityToken>.stride)

  static func tokens(in text: NormalizedText) -> [EntityToken] {
    let s = text.scalars
    let numbers = text.numbers
    var tokens: [EntityToken] = []
    tokens.reserveCapacity(min(s.count / 2 + 1, Self.cachedCapacity))
    var numberIndex = 0
    var i = 0
    var previousEnd = -1
    func push(_ kind: EntityToken.Kind, _ range: Range<Int>) {
      tokens.append(
        EntityToken(kind: kind, range: range, isAttached: range.lowerBound == previousEnd))
      previousEnd = range.upperBound
    }
    while i < s.count {
      while numberIndex < numbers.count, numbers[numberIndex].range.lowerBound < i {
        numberIndex += 1
      }
      let v = s[i].value
      if v == 0x20 {
        i += 1
        continue
      }
      if numberIndex < numbers.count, numbers[numberIndex].range.lowerBound == i {
        let number = numbers[numberIndex]
        if let end = unreadableNumberEnd(number, in: text) {
          pushOther(&tokens, i..<end, &previousEnd)
          i = end
          while numberIndex < numbers.count, numbers[numberIndex].range.lowerBound < end {
            numberIndex += 1
          }
          continue
        }
        // Texting spellings that open with a digit: "2moro", "2day", "2nite".
        if isASCIIDigit(v), number.range.upperBound < s.count,
          isASCIILetter(s[number.range.upperBound].value),
          let (word, end) = latinWord(at: i, in: s, afterNumber: false)
        {
          push(.word(word), i..<end)
          i = end
          numberIndex += 1
          continue
        }
        if let (kind, end) = compound(at: numberIndex, in: text) {
          push(kind, i..<end)
          i = end
          while numberIndex < numbers.count, numbers[numberIndex].range.lowerBound < end {
            numberIndex += 1
          }
          continue
        }
        push(.number(numberIndex), number.range)
        i = max(number.range.upperBound, i + 1)
        numberIndex += 1
        continue
      }
      if isASCIILetter(v) {
        var wordEnd = i
        while wordEnd < s.count, isASCIILetter(s[wordEnd].value) { wordEnd += 1 }
        let atWordStart = i == 0 || !isASCIILetter(s[i - 1].value)
        if atWordStart,
          let (word, end) = latinWord(
            at: i, in: s,
            afterNumber: previousEnd == i
              || isAfterNumber(tokens, previousEnd: previousEnd, i: i, s: s))
        {
          push(.word(word), i..<end)
          i = end
        } else {
          pushOther(&tokens, i..<wordEnd, &previousEnd)
          i = wordEnd
        }
        continue
      }
      if v >= 0x3400, let match = cjkWord(at: i, in: s) {
        push(.word(match.value), i..<match.end)
        i = match.end
        continue
      }
      pushOther(&tokens, i..<(i + 1), &previousEnd)
      i += 1
    }
    return tokens
  }

  /// Where a number that counts nothing ends, or nil for a number that may count minutes,
  /// days or years.
  ///
  /// A signed number ("-5 minutes", "负五分钟") or one in scientific notation ("1e308
  /// seconds") is no length of time, and a year before the common era ("公元前3000年") is no
  /// day to be reminded on. Reading "5" out of them sets the wrong value, so they are not read
  /// as numbers at all: the slot is then missing and asked for.
  static func unreadableNumberEnd(_ number: NumberSpan, in text: NormalizedText) -> Int? {
    let s = text.scalars
    let start = number.range.lowerBound
    let end = number.range.upperBound
    // An exponent glued to the digits: e, an optional sign, digits.
    if isASCIIDigit(s[start].value), end + 1 < s.count, s[end] == "e" || s[end] == "E" {
      var k = end + 1
      if k < s.count, s[k] == "+" || s[k] == "-" { k += 1 }
      if k < s.count, isASCIIDigit(s[k].value) {
        while k < s.count, isASCIIDigit(s[k].value) || s[k] == "." { k += 1 }
        return k
      }
    }
    if start > 0, s[start - 1] == "负" { return end }
    // The whole date goes: "公元前3000年1月1日" is no 1 January either.
    if start >= 3, s[(start - 3)..<start].elementsEqual("公元前".unicodeScalars) {
      var k = end
      while k < s.count, isASCIIDigit(s[k].value) || "年月日号".unicodeScalars.contains(s[k]) {
        k += 1
      }
      return k
    }
    // The normaliser drops a leading minus sign: look at the original text. A minus between
    // letters or digits is a hyphen or a range ("covid-19", "5-6pm", "2026-12-01").
    let original = text.originalScalars
    let source = Int(text.sourceStarts[start])
    if source >= 1, "-−－﹣".unicodeScalars.contains(original[source - 1]),
      source < 2
        || !isASCIIDigit(original[source - 2].value)
          && !isASCIILetter(original[source - 2].value)
    {
      return end
    }
    return nil
  }

  private static func pushOther(
    _ tokens: inout [EntityToken], _ range: Range<Int>, _ previousEnd: inout Int
  ) {
    if let last = tokens.last, case .other = last.kind, last.range.upperBound == range.lowerBound {
      tokens[tokens.count - 1].range = last.range.lowerBound..<range.upperBound
    } else {
      tokens.append(
        EntityToken(kind: .other, range: range, isAttached: range.lowerBound == previousEnd))
    }
    previousEnd = range.upperBound
  }

  private static func isAfterNumber(
    _ tokens: [EntityToken], previousEnd: Int, i: Int, s: [Unicode.Scalar]
  ) -> Bool {
    // Touching, or one space apart.
    func adjacent(_ end: Int, _ start: Int) -> Bool {
      start == end || (start == end + 1 && s[end] == " ")
    }
    func isNumber(_ token: EntityToken) -> Bool {
      switch token.kind {
      case .number, .clock: return true
      default: return false
      }
    }
    guard let last = tokens.last, last.range.upperBound == previousEnd, adjacent(previousEnd, i)
    else { return false }
    if isNumber(last) { return true }
    // "5 more mins": a measure word between the number and its unit.
    guard case .word(.measure) = last.kind, tokens.count >= 2 else { return false }
    let number = tokens[tokens.count - 2]
    return isNumber(number) && adjacent(number.range.upperBound, last.range.lowerBound)
  }

  /// The longest CJK lexicon word at `i`, unless its last character starts an idiom: in
  /// 这周一共 the 一 belongs to 一共, so the word is 这周, not 这周一 (周一下午 stays Monday).
  private static func cjkWord(at i: Int, in s: [Unicode.Scalar]) -> (
    end: Int, value: LexiconWord
  )? {
    guard let match = EntityLexicon.trie.longestMatch(in: s, from: i) else { return nil }
    guard match.end - i >= 2, match.end < s.count, s[match.end - 1] == "一",
      idiomAfterWeekdayOne.contains(s[match.end].value)
    else { return match }
    return EntityLexicon.trie.longestMatch(in: s, from: i, limit: match.end - 1)
  }

  /// Second characters of idioms that start with 一 and follow 这周 / 每周 in speech: 一共, 一起,
  /// 一直, 一定, 一样, 一些, 一切, 一般, 一次.
  private static let idiomAfterWeekdayOne: Set<UInt32> = Set(
    "共起直定样些切般次".unicodeScalars.map(\.value))

  /// The lexicon word that starts at `i` and ends at a word boundary.
  private static func latinWord(at i: Int, in s: [Unicode.Scalar], afterNumber: Bool) -> (
    LexiconWord, Int
  )? {
    // The longest acceptable word wins: the walk goes shortest first, so the last one is kept.
    var best: (LexiconWord, Int)?
    EntityLexicon.trie.forEachMatch(in: s, from: i) { end, word in
      if end < s.count {
        let next = s[end].value
        // A possessive "'s" ends the word: "yesterday's", "this week's".
        let isPossessive =
          next == 0x27 && end + 1 < s.count && s[end + 1] == "s"
          && (end + 2 == s.count || !isASCIILetter(s[end + 2].value))
        if isASCIILetter(next) || (next == 0x27 && !isPossessive) { return }
        if next == 0x2E, end + 1 < s.count, isASCIILetter(s[end + 1].value) { return }
      }
      if !afterNumber, EntityLexicon.needsNumberBefore(word, text: s[i..<end]) { return }
      best = (word, end)
    }
    return best
  }

  /// A clock `8:10` or date `12/25`, `2026-12-25` starting at number `index`.
  private static func compound(at index: Int, in text: NormalizedText) -> (EntityToken.Kind, Int)? {
    let numbers = text.numbers
    let s = text.scalars
    let first = numbers[index]
    let end = first.range.upperBound
    guard !first.isRange, end + 1 < s.count, index + 1 < numbers.count,
      numbers[index + 1].range.lowerBound == end + 1, !numbers[index + 1].isRange,
      let a = exactInt(first.value, digits: first.range.count),
      let b = exactInt(numbers[index + 1].value, digits: numbers[index + 1].range.count)
    else { return nil }
    let second = numbers[index + 1]
    switch s[end] {
    case ":":
      let valid = a <= 24 && b <= 59 && (a < 24 || b == 0) && second.range.count == 2
      return (
        .clock(
          hour: a, minute: b, isValid: valid, isTwentyFourHour: first.range.count == 2 && a < 10),
        second.range.upperBound
      )
    case "/":
      if index + 2 < numbers.count, second.range.upperBound + 1 < s.count,
        s[second.range.upperBound] == "/",
        numbers[index + 2].range.lowerBound == second.range.upperBound + 1,
        let y = exactInt(numbers[index + 2].value, digits: numbers[index + 2].range.count),
        y >= 1000
      {
        return (.date(year: y, month: a, day: b), numbers[index + 2].range.upperBound)
      }
      return (.date(year: nil, month: a, day: b), second.range.upperBound)
    case "-":
      guard a >= 1000, index + 2 < numbers.count, second.range.upperBound + 1 < s.count,
        s[second.range.upperBound] == "-",
        numbers[index + 2].range.lowerBound == second.range.upperBound + 1,
        let d = exactInt(numbers[index + 2].value, digits: numbers[index + 2].range.count)
      else { return nil }
      return (.date(year: a, month: b, day: d), numbers[index + 2].range.upperBound)
    default:
      return nil
    }
  }

  /// The value as an Int when it is a small non-negative integer.
  static func exactInt(_ value: Double, digits: Int = 1) -> Int? {
    guard value.isFinite, value >= 0, value < 1_000_000, value == value.rounded() else {
      return nil
    }
    return Int(value)
  }
}
