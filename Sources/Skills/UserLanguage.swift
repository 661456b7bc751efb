/// The language a skill answers in: the language the user wrote the command in.
///
/// The agent adds it to every skill's input as the `lang` key, read from the utterance.
public enum UserLanguage: String, Codable, Sendable, Equatable {
  /// Chinese.
  case zh
  /// English.
  case en

  /// The input key under which the agent passes the language.
  public static let inputKey = "lang"

  /// The language of `text`: Chinese when it holds a Han character, else English.
  public static func of(_ text: String) -> UserLanguage {
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if (0x4E00...0x9FFF).contains(value) || (0x3400...0x4DBF).contains(value)
        || (0x20000...0x2A6DF).contains(value)
      {
        return .zh
      }
    }
    return .en
  }

  /// Picks the Chinese or the English wording.
  public func say(_ chinese: @autoclosure () -> String, _ english: @autoclosure () -> String)
    -> String
  {
    self == .zh ? chinese() : english()
  }

  /// Says how old a cached result is: `数据更新于3小时前`, `as of 3 hours ago`.
  public func staleNote(age seconds: Double) -> String {
    let s = seconds.isFinite ? Int(min(max(0, seconds), 1e12)) : 0
    let (count, zh, en): (Int, String, String)
    switch s {
    case ..<60: return say("数据更新于刚才", "as of just now")
    case ..<3600: (count, zh, en) = (s / 60, "分钟", "minute")
    case ..<86400: (count, zh, en) = (s / 3600, "小时", "hour")
    default: (count, zh, en) = (s / 86400, "天", "day")
    }
    return say("数据更新于\(count)\(zh)前", "as of \(count) \(en)\(count == 1 ? "" : "s") ago")
  }
}
