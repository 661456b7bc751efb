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
}
