import TestSupport
import Testing

@testable import IntentEngine

struct NormalizerTests {
  /// Input and its expected normalised rendering.
  struct Case: Sendable, CustomTestStringConvertible {
    var input: String
    var normalized: String
    var testDescription: String { "\(input) → \(normalized)" }
  }

  static let cases: [Case] = [
    Case(input: "  Hello,  WORLD!  ", normalized: "hello world"),
    Case(input: "ＡＢＣ　１２３", normalized: "abc 123"),
    Case(input: "明天１０點叫我", normalized: "明天10点叫我"),
    Case(input: "三分鐘後提醒我", normalized: "3分钟后提醒我"),
    Case(input: "這個週末幫我記一下", normalized: "这个周末帮我记一下"),
    Case(input: "8：30", normalized: "8:30"),
    Case(input: "12/25", normalized: "12/25"),
    Case(input: "1.5 hours", normalized: "1.5 hours"),
    Case(input: "wait... what?", normalized: "wait what"),
    Case(input: "8 a.m.", normalized: "8 a.m"),
    Case(input: "O'Clock", normalized: "o'clock"),
    Case(input: "a-b 3-", normalized: "a b 3"),
    Case(input: "tab\tand\nnewline", normalized: "tab and newline"),
    Case(input: "RTL\u{200F}mark", normalized: "rtlmark"),
    Case(input: "e\u{301}", normalized: "\u{e9}"),
    Case(input: "①②", normalized: "12"),
    Case(input: "好的，明天。", normalized: "好的 明天"),
    Case(input: "😀提醒😀我", normalized: "提醒 我"),
    // '@' alone is read "at"; inside an address it is a break, as other symbols are.
    Case(input: "remind me @ 5", normalized: "remind me at 5"),
    Case(input: "@5pm", normalized: "at 5pm"),
    Case(input: "bob@gmail.com", normalized: "bob gmail.com"),
    // '+' before a number is said "plus"; elsewhere it is a break.
    Case(input: "timer +3 min", normalized: "timer plus 3 min"),
    Case(input: "计时器＋10分钟", normalized: "计时器 plus 10分钟"),
    Case(input: "c++", normalized: "c"),
    Case(input: "", normalized: ""),
    // Written Cantonese reads as Mandarin, word for word, so the same keywords and time words meet it.
    Case(input: "聽日下晝三點提我", normalized: "明天下午3点提我"),
    Case(input: "計時器仲剩幾多分鐘", normalized: "计时器还剩多少分钟"),
    Case(input: "唔好取消", normalized: "不要取消"),
    Case(input: "購物單有咩", normalized: "购物单有啥"),
    // 唔 before a pause is Mandarin's "hmm"; 听 and 几 alone keep their Mandarin sense.
    Case(input: "唔，听歌", normalized: "唔 听歌"),
    Case(input: "几点了", normalized: "几点了"),
    // Wu and northern words too; 伐 ends a question, except in 步伐.
    Case(input: "上海今朝会落雨伐", normalized: "上海今天会下雨吗"),
    Case(input: "覅提醒我", normalized: "别提醒我"),
    Case(input: "加快步伐", normalized: "加快步伐"),
    // A Chinese numeral against an English word is a word of its own.
    Case(input: "set个timer七分钟", normalized: "set个timer 7分钟"),
  ]

  @Test(arguments: cases)
  func foldsWidthCaseScriptAndPunctuation(_ c: Case) {
    #expect(Normalizer().normalize(c.input).string == c.normalized)
  }

  @Test func cantoneseWordsKeepTheMapToTheUsersWords() {
    let text = Normalizer().normalize("唔該聽日提我交租")
    #expect(text.string == "麻烦明天提我交租")
    #expect(text.originalText(of: 2..<4) == "聽日")
    #expect(text.originalText(of: 6..<8) == "交租")
  }

  static let numerals: [Case] = [
    Case(input: "十五", normalized: "15"),
    Case(input: "二十三", normalized: "23"),
    Case(input: "一百零五", normalized: "105"),
    Case(input: "两个", normalized: "2个"),
    Case(input: "三点", normalized: "3点"),
    Case(input: "一刻", normalized: "1刻"),
    Case(input: "一个半小时", normalized: "1个半小时"),
    Case(input: "两分半钟", normalized: "2分半钟"),
    Case(input: "一千二", normalized: "1200"),
    Case(input: "两万三", normalized: "23000"),
    Case(input: "3万步", normalized: "30000步"),
    Case(input: "二零二六年", normalized: "2026年"),
    Case(input: "零五", normalized: "05"),
    Case(input: "两三分钟", normalized: "2-3分钟"),
    Case(input: "十五六", normalized: "15-16"),
    Case(input: "二三十", normalized: "20-30"),
    Case(input: "twenty-five minutes", normalized: "25 minutes"),
    Case(input: "one hundred and five", normalized: "105"),
    Case(input: "two or three", normalized: "2-3"),
    Case(input: "ten thousand steps", normalized: "10000 steps"),
    Case(input: "a hundred and twenty", normalized: "120"),
    Case(input: "this one", normalized: "this one"),
    Case(input: "someone", normalized: "someone"),
    Case(input: "周一", normalized: "周一"),
    Case(input: "下星期三十点", normalized: "下星期三10点"),
    Case(input: "十分感谢", normalized: "十分感谢"),
    Case(input: "三点十分", normalized: "3点10分"),
    Case(input: "十分钟", normalized: "10分钟"),
    Case(input: "一下", normalized: "一下"),
    Case(input: "一起", normalized: "一起"),
    Case(input: "有一点", normalized: "有一点"),
    Case(input: "快一点儿", normalized: "快一点儿"),
    Case(input: "下午一点", normalized: "下午1点"),
    Case(input: "今晚一点", normalized: "今晚1点"),
    Case(input: "晚一点", normalized: "晚一点"),
    Case(input: "万一", normalized: "万一"),
    Case(input: "统一", normalized: "统一"),
    Case(input: "一会儿", normalized: "一会儿"),
    Case(input: "四川", normalized: "四川"),
    Case(input: "去三亚", normalized: "去三亚"),
    Case(input: "百度", normalized: "百度"),
  ]

  @Test(arguments: numerals)
  func readsNumeralsAndKeepsIdioms(_ c: Case) {
    #expect(Normalizer().normalize(c.input).string == c.normalized)
  }

  @Test func listsEveryNumberWithRangeAndValue() {
    let text = Normalizer().normalize("买两三个苹果和5个梨，1.5公斤")
    #expect(
      text.numbers == [
        NumberSpan(range: 1..<4, value: 2, upperBound: 3),
        NumberSpan(range: 8..<9, value: 5),
        NumberSpan(range: 12..<15, value: 1.5),
      ])
    #expect(text.numbers[0].resolvedValue == 3)
  }

  @Test func mapsNormalisedRangesBackToTheUsersWords() {
    let text = Normalizer().normalize("明天早上八點提醒我買牛奶")
    #expect(text.string == "明天早上8点提醒我买牛奶")
    #expect(text.originalText(of: 4..<6) == "八點")
    #expect(text.originalText(of: 9..<12) == "買牛奶")
  }

  @Test func mapsFoldedNumbersToAllTheirCharacters() {
    let text = Normalizer().normalize("等一百零五秒")
    #expect(text.string == "等105秒")
    #expect(text.originalText(of: 1..<4) == "一百零五")
  }

  @Test func traditionalTableStaysAlignedToItsEnd() {
    let pairs: [(Unicode.Scalar, Unicode.Scalar)] = [
      ("鐘", "钟"), ("後", "后"), ("會", "会"), ("氣", "气"), ("幾", "几"), ("個", "个"), ("點", "点"),
      ("鬧", "闹"), ("週", "周"), ("紐", "纽"), ("鼕", "冬"), ("慄", "栗"), ("嶽", "岳"),
    ]
    for (traditional, simplified) in pairs {
      #expect(TraditionalChinese.simplified(traditional.value) == simplified.value)
    }
    #expect(TraditionalChinese.simplified(Unicode.Scalar("杭").value) == Unicode.Scalar("杭").value)
  }

  @Test(arguments: ["timer", "Remind Me", "提醒我", "new york", "提醒 我 timer", "闹钟"])
  func plainWordsTakeTheShortPath(_ text: String) {
    #expect(Normalizer().plainScalars(of: text) == Normalizer().normalize(text).scalars)
  }

  @Test(arguments: [
    "計時", "一下", "十分钟", "three", "a hundred", "no one", "twenty five", " 提醒", "提醒 ",
    "提醒  我", "B2层", "o'clock", "ｔｉｍｅｒ", "提醒，我",
  ])
  func wordsTheShortPathCannotVouchForGoTheFullWay(_ text: String) {
    #expect(Normalizer().plainScalars(of: text) == nil)
    #expect(Normalizer().scalars(of: text) == Normalizer().normalize(text).scalars)
  }

  @Test func grammarWordsNormaliseAlikeOnEitherPath() {
    let pieces = [
      "one", "two", "hundred", "a", "the", "timer", "Set", "ten", "一", "十", "提醒", "計", "后", "点",
      "3", "'", ".", " ", "  ", "，",
    ]
    var generator = SeededGenerator(seed: 11)
    for _ in 0..<3_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...6, using: &generator) {
        text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      #expect(
        Normalizer().scalars(of: text) == Normalizer().normalize(text).scalars, "'\(text)'")
    }
  }

  @Test func longDigitRunsReadAsTheNearestDouble() {
    let text = Normalizer().normalize("99999999999999999999分钟")
    #expect(text.numbers.first?.value == 1e20)
  }
}
