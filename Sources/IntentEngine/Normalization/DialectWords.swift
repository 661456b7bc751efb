/// Dialect words read as their Mandarin equivalents, so a command typed in Cantonese, Wu,
/// southwestern or northern usage meets the same keywords and time words ("聽日下晝三點提我" as
/// 明天下午三点, "仲剩幾多分鐘" as 还剩多少分钟, "上海今朝会落雨伐" as 今天 … 下雨吗, "有冇得雨" as
/// 有没有雨).
///
/// Each replacement keeps the word's length, so the map back to the user's own words is
/// unchanged. Single characters that are dialect only (嘅 咗 睇 冇 喺 佢 覅 甭 侬 …) are in
/// `TraditionalChinese`; the pairs here are words whose characters mean something else alone in
/// Mandarin (听, 几, 落, 仲, 朝), 唔, which is Mandarin's "hmm" before a pause and Cantonese "not"
/// before a word, and the Wu question particle 伐, read 吗 where a clause ends (步伐 and 砍伐 keep it).
enum DialectWords {
  /// Dialect then Mandarin, two characters each, after traditional → simplified folding.
  private static let pairs = """
    听日明天 琴日昨天 寻日昨天 而家现在 几多多少 几耐多久 下昼下午 晏昼下午 朝早早上 听朝明早 \
    边度哪里 边个哪个 点样怎样 乜嘢什么 落雨下雨 落雪下雪 唔该麻烦 唔好不要 搞掂搞定 \
    写低写下 记低记下 加埋加上 仲有还有 仲要还要 仲剩还剩 仲未还没 拎遮带伞 带遮带伞 \
    今朝今天 明朝明天 哪能怎样 里厢里面 删脱删掉 么子什么 没得没有
    """

  private struct Entry {
    let second: UInt32
    let first: Unicode.Scalar
    let then: Unicode.Scalar
  }

  /// The entries by their first character.
  private static let entries: [UInt32: [Entry]] = {
    var entries: [UInt32: [Entry]] = [:]
    for word in pairs.split(separator: " ") {
      let scalars = Array(word.unicodeScalars)
      precondition(scalars.count == 4, "a dialect pair is two characters and two characters")
      entries[scalars[0].value, default: []].append(
        Entry(second: scalars[1].value, first: scalars[2], then: scalars[3]))
    }
    return entries
  }()

  /// One bit per unified ideograph: whether a pair starts with it.
  ///
  /// A text with no such character, as nearly every command is, is read once and left alone.
  private static let leads: [UInt64] = {
    var bits = [UInt64](repeating: 0, count: Int(cjkEnd - cjkStart) / 64 + 1)
    for value in Array(entries.keys) + [notValue, questionValue] {
      let offset = Int(value - cjkStart)
      bits[offset >> 6] |= 1 << UInt64(offset & 63)
    }
    return bits
  }()

  private static let cjkStart: UInt32 = 0x4E00
  private static let cjkEnd: UInt32 = 0xA000
  /// 唔, read 不 when a word follows it.
  private static let notValue: UInt32 = 0x5514
  /// 伐, read 吗 where a clause ends.
  private static let questionValue: UInt32 = 0x4F10
  /// The characters before a 伐 that is the Mandarin word "cut, attack" (步伐, 砍伐, 讨伐 …).
  private static let beforeFa: Set<Unicode.Scalar> = ["步", "砍", "讨", "征", "采", "杀", "北"]

  /// Rewrites the dialect words in `scalars` in place.
  static func rewrite(_ scalars: inout [Unicode.Scalar]) {
    // Read without writing first: nearly every command has no such character, and is left
    // untouched.
    guard let first = scalars.firstIndex(where: { isLead($0.value) }) else { return }
    var index = first
    while index < scalars.count {
      let value = scalars[index].value
      guard isLead(value) else {
        index += 1
        continue
      }
      if index + 1 < scalars.count,
        let entry = entries[value]?.first(where: {
          $0.second == scalars[index + 1].value
        })
      {
        scalars[index] = entry.first
        scalars[index + 1] = entry.then
        index += 2
        continue
      }
      if value == notValue, index + 1 < scalars.count, isCJKIdeograph(scalars[index + 1].value) {
        scalars[index] = "不"
      } else if value == questionValue, index > 0, isCJKIdeograph(scalars[index - 1].value),
        !Self.beforeFa.contains(scalars[index - 1]),
        index + 1 == scalars.count || !isCJKIdeograph(scalars[index + 1].value)
      {
        scalars[index] = "吗"
      }
      index += 1
    }
  }

  @inline(__always)
  private static func isLead(_ value: UInt32) -> Bool {
    guard value &- cjkStart < cjkEnd - cjkStart else { return false }
    let offset = Int(value - cjkStart)
    return leads[offset >> 6] & (1 << UInt64(offset & 63)) != 0
  }
}
