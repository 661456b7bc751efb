/// Chinese numeral characters, their values and the words that only look numeric.
enum ChineseNumerals {
  /// One numeral character: a digit (零…九, 两, 俩) or a unit (十 百 千 万 亿).
  enum Token: Equatable {
    case digit(Int)
    case unit(Double)

    /// Whether the character cannot start a number on its own (百度, 千万, 万一).
    var isLargeUnit: Bool {
      if case .unit(let u) = self { return u >= 100 }
      return false
    }
  }

  /// The numeral `value` spells, if any.
  @inline(__always)
  static func kind(of value: UInt32) -> Token? {
    switch value {
    case 0x96F6, 0x3007: .digit(0)  // 零 〇
    case 0x4E00: .digit(1)  // 一
    case 0x4E8C, 0x4E24, 0x4FE9: .digit(2)  // 二 两 俩
    case 0x4E09: .digit(3)  // 三
    case 0x56DB: .digit(4)  // 四
    case 0x4E94: .digit(5)  // 五
    case 0x516D: .digit(6)  // 六
    case 0x4E03: .digit(7)  // 七
    case 0x516B: .digit(8)  // 八
    case 0x4E5D: .digit(9)  // 九
    case 0x5341: .unit(10)  // 十
    case 0x767E: .unit(100)  // 百
    case 0x5343: .unit(1000)  // 千
    case 0x4E07: .unit(10_000)  // 万
    case 0x4EBF: .unit(100_000_000)  // 亿
    default: nil
    }
  }

  /// The multiplier a Chinese unit applies right after Arabic digits (`3万`, `1.5千`).
  static func multiplierAfterDigits(_ value: UInt32) -> Double? {
    switch value {
    case 0x767E: 100
    case 0x5343: 1000
    case 0x4E07: 10_000
    case 0x4EBF: 100_000_000
    default: nil
    }
  }

  /// The value of a numeral run: a single value, a range, or a digit-by-digit reading.
  struct Reading: Equatable {
    var value: Double
    var upper: Double?
    /// The digits as read one by one (二零二六 → "2026"), kept so leading zeros survive.
    var digitString: String?
  }

  /// Reads a run of numeral tokens; nil when the run is not a well-formed number.
  static func value(of tokens: [Token]) -> Reading? {
    guard !tokens.isEmpty else { return nil }
    let hasUnits = tokens.contains { if case .unit = $0 { true } else { false } }
    // A range: exactly one pair of adjacent, consecutive non-zero digits (两三, 十五六, 二三十).
    var rangeAt: Int?
    for k in 0..<(tokens.count - 1) {
      guard case .digit(let a) = tokens[k], case .digit(let b) = tokens[k + 1], a != 0, b != 0
      else {
        continue
      }
      if isRangePair(a, b) {
        if rangeAt != nil { return hasUnits ? nil : digitReading(tokens) }
        rangeAt = k
      } else if hasUnits {
        return nil
      } else {
        return digitReading(tokens)
      }
    }
    if let k = rangeAt {
      if !hasUnits && tokens.count > 2 { return digitReading(tokens) }
      var lowerTokens = tokens
      lowerTokens.remove(at: k + 1)
      var upperTokens = tokens
      upperTokens.remove(at: k)
      guard let low = positional(lowerTokens), let high = positional(upperTokens), high > low else {
        return nil
      }
      return Reading(value: low, upper: high)
    }
    if !hasUnits {
      return tokens.count == 1
        ? positional(tokens).map { Reading(value: $0) } : digitReading(tokens)
    }
    return positional(tokens).map { Reading(value: $0) }
  }

  /// 两三, 三四 … 八九, 一两 and the idiomatic 三五 ("three to five").
  private static func isRangePair(_ a: Int, _ b: Int) -> Bool {
    b == a + 1 || (a == 3 && b == 5)
  }

  private static func digitReading(_ tokens: [Token]) -> Reading? {
    var text = ""
    var value = 0.0
    for token in tokens {
      guard case .digit(let d) = token else { return nil }
      text.unicodeScalars.append(Unicode.Scalar(UInt8(0x30 + d)))
      value = value * 10 + Double(d)
    }
    return Reading(value: value, digitString: text)
  }

  /// Reads 十五, 二十三, 一百零五, 三万五千, 一千二 (= 1200) and 两万三 (= 23000).
  private static func positional(_ tokens: [Token]) -> Double? {
    var total = 0.0
    var section = 0.0
    var pending: Int?
    var lastUnit: Double?
    var afterZero = false
    for token in tokens {
      switch token {
      case .digit(let d):
        if let p = pending {
          guard p == 0 else { return nil }
          afterZero = true
        }
        pending = d
      case .unit(let u) where u < 10_000:
        if let last = lastUnit, last < 10_000, last <= u, pending == nil { return nil }
        let n = pending ?? (u == 10 && section == 0 && total == 0 ? 1 : (u == 10 ? 1 : -1))
        guard n >= 0 else { return nil }
        section += Double(n) * u
        pending = nil
        lastUnit = u
        afterZero = false
      case .unit(let u):
        section += Double(pending ?? 0)
        guard section > 0 else { return nil }
        total = u == 10_000 ? total + section * u : (total + section) * u
        section = 0
        pending = nil
        lastUnit = u
        afterZero = false
      }
    }
    if let p = pending {
      if !afterZero, let last = lastUnit, last >= 100 {
        section += Double(p) * last / 10
      } else {
        section += Double(p)
      }
    }
    return total + section
  }

  /// 一 … 六 after 周 / 星期 / 礼拜, which stay characters so weekdays read as words.
  static let weekdayDigits: Set<UInt32> = [0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94, 0x516D]

  /// Characters before 一点 that make it "a little" (快一点, 有一点, 早一点).
  static let littleBefore: Set<UInt32> = Set(
    "有快慢多少大小高低早晚好轻重远近长短强弱冷热差稍再点些亮暗便宜贵".unicodeScalars.map(\.value))

  /// Characters before 早 / 晚 that make them a part of a day (今晚一点 is one o'clock).
  static let dayBeforePart: Set<UInt32> = Set("今明昨傍每".unicodeScalars.map(\.value))

  /// Words whose numeral characters are not numbers: idioms, function words and place names.
  ///
  /// Checked where a numeral starts and up to two characters before it (有一点, 统一). Gazetteer
  /// tests assert that every place name in the built-in gazetteer survives normalisation.
  static let protectedWords: ScalarTrie<Bool> = {
    let words = """
      一下 一下子 一起 一点儿 一点点 有一点 有点 一直 一定 一样 一些 一会儿 一会 万一 统一 唯一 一般 \
      一切 一共 一边 一旦 一向 一致 一律 一再 一同 一并 一早 一大早 一半 之一 同一 单一 一路 一心 \
      一生 一辈子 一方面 一阵子 一口气 一模一样 一手 一带 一流 一体 一贯 一概 一经 一番 一味 一举 \
      不一 一时 一刹那 一瞬 一眼 一觉 一趟 一遍 一块儿 一道 一直到 一面 第一次 千万 万万 百度 百货 \
      万岁 三明治 三星 七夕 五金 九州 十字 八卦 四处 三心二意 一五一十 乱七八糟 七上八下 五颜六色 \
      一清二楚 三番五次 不三不四 四面八方 十全十美 九死一生 一举两得 两全其美 一路平安 一帆风顺 \
      万事如意 一言为定 独一无二 接二连三 三天两头 四川 三亚 三明 三门峡 九江 六安 六盘水 七台河 十堰 \
      五指山 五家渠 九龙 三沙 四平 二连浩特 三河 九寨沟 五台山 千岛湖 万宁 万州 千叶 一宫 六本木 \
      八达岭 十三陵 五道口 三里屯 二环 三环 四环 五环 万象
      """
    var trie = ScalarTrie<Bool>()
    for word in words.split(separator: " ") where !word.isEmpty {
      trie.insert(word.unicodeScalars, value: true)
    }
    return trie
  }()
}

/// English number words and the determiners that make "one" a pronoun.
enum EnglishNumerals {
  static let hundred: Int32 = -100
  static let thousand: Int32 = -1000
  static let million: Int32 = -1_000_000
  static let one: Int32 = 1

  /// Word → value (0…90) or scale code (`hundred`, `thousand`, `million`).
  static let words: ScalarTrie<Int32> = {
    let table: [(String, Int32)] = [
      ("zero", 0), ("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6),
      ("seven", 7), ("eight", 8), ("nine", 9), ("ten", 10), ("eleven", 11), ("twelve", 12),
      ("thirteen", 13), ("fourteen", 14), ("fifteen", 15), ("sixteen", 16), ("seventeen", 17),
      ("eighteen", 18), ("nineteen", 19), ("twenty", 20), ("thirty", 30), ("forty", 40),
      ("fifty", 50), ("sixty", 60), ("seventy", 70), ("eighty", 80), ("ninety", 90),
      ("fourty", 40),
      ("hundred", hundred), ("thousand", thousand), ("million", million),
    ]
    var trie = ScalarTrie<Int32>()
    for (word, code) in table { trie.insert(word.unicodeScalars, value: code) }
    return trie
  }()

  /// Words before "one" that make it a pronoun: "this one", "no one", "the one".
  static let determiners: ScalarTrie<Bool> = {
    var trie = ScalarTrie<Bool>()
    for word in [
      "no", "this", "that", "the", "which", "any", "every", "each", "some", "another", "a",
    ] {
      trie.insert(word.unicodeScalars, value: true)
    }
    return trie
  }()
}
