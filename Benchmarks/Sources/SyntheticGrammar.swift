import Foundation
import IntentEngine

/// Generates grammars of any size and utterances that hit them, for scaling measurements.
///
/// Every intent gets its own trigger words (a required group) and extra words, half of them
/// Latin and half Chinese, plus words shared with its neighbours so that several intents compete
/// for most utterances, as in real grammars.
struct SyntheticGrammar {
  let intentCount: Int
  /// The grammar text, one file per language.
  let sources: [GrammarSource]
  /// Utterances built from the grammar's vocabulary plus filler words.
  let utterances: [String]

  private static let syllables = [
    "ka", "lo", "mi", "ne", "su", "ta", "vo", "ri", "ze", "pu", "ga", "do", "fe", "hi", "jo", "ru",
  ]
  /// Common Han characters for Chinese pseudo-words (no grammar meaning).
  private static let han = Array("山水木火土金日月风云雨雪花草鸟鱼石田光门车书笔纸茶米")
  private static let fillers = ["please", "can", "you", "the", "now", "帮我", "一下", "吧"]

  init(intents: Int, utteranceCount: Int = 500, seed: UInt64 = 42) {
    intentCount = intents
    var rng = SeededGenerator(seed: seed ^ UInt64(intents))
    var latin = "# synthetic grammar: \(intents) intents\n\n"
    var chinese = "# synthetic grammar: \(intents) intents\n\n"
    var vocabulary: [[String]] = []
    for index in 0..<intents {
      let isChinese = index % 2 == 0
      let words = (0..<4).map { Self.word(index: index, part: $0, chinese: isChinese) }
      let shared = Self.word(index: index / 4, part: 9, chinese: isChinese)
      vocabulary.append(words + [shared])
      let block = """
        intent synth\(index / 26).\(Self.letters(index))
          description: synthetic intent number \(index)
          keywords trigger (weight 2, required): \(words[0]), \(words[1])
          keywords extra: \(words[2]), \(words[3]), \(shared)
          exclude (penalty 1): \(Self.word(index: index + 1, part: 0, chinese: isChinese))

        """
      if isChinese { chinese += block } else { latin += block }
    }
    sources = [
      GrammarSource(path: "synthetic/en/synthetic.grammar", language: "en", text: latin),
      GrammarSource(path: "synthetic/zh/synthetic.grammar", language: "zh", text: chinese),
    ]
    var made: [String] = []
    for _ in 0..<utteranceCount {
      let target = Int.random(in: 0..<intents, using: &rng)
      let words = vocabulary[target]
      let neighbour = vocabulary[Int.random(in: 0..<intents, using: &rng)]
      var parts = [
        words[Int.random(in: 0...1, using: &rng)], words[Int.random(in: 2...4, using: &rng)],
      ]
      if Bool.random(using: &rng) { parts.append(neighbour[Int.random(in: 2...4, using: &rng)]) }
      parts.append(Self.fillers[Int.random(in: 0..<Self.fillers.count, using: &rng)])
      parts.shuffle(using: &rng)
      made.append(target % 2 == 0 ? parts.joined() : parts.joined(separator: " "))
    }
    utterances = made
  }

  /// A pseudo-word unique to (index, part): Latin syllables or a run of Han characters.
  static func word(index: Int, part: Int, chinese: Bool) -> String {
    var value = index * 10 + part + 1
    var out = ""
    if chinese {
      repeat {
        out.append(han[value % han.count])
        value /= han.count
      } while value > 0
      return out.count < 2 ? out + "子" : out
    }
    repeat {
      out += syllables[value % syllables.count]
      value /= syllables.count
    } while value > 0
    return out + "x"
  }

  /// Lowercase letters naming an index, for intent ids (`a`, `b`, … `z`, `ba`, …).
  static func letters(_ index: Int) -> String {
    var value = index
    var out = ""
    repeat {
      out = String(UnicodeScalar(UInt8(97 + value % 26))) + out
      value /= 26
    } while value > 0
    return out
  }
}
