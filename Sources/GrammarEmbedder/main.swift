import Foundation

/// Writes the Swift source that embeds the built-in grammar files in the binary.
///
/// Usage: `GrammarEmbedder <Grammars folder> <output.swift>`. Every `.grammar`, `.gazetteer`,
/// `.readings` and `calibration.json` under the folder becomes one `BuiltinGrammars.File`, in sorted path
/// order, so that a copied `intent` binary needs no resource bundle beside it.
enum GrammarEmbedder {
  /// Whether a path relative to the grammar folder is a file the engine reads.
  static func isEmbedded(_ relative: String) -> Bool {
    relative.hasSuffix(".grammar") || relative.hasSuffix(".gazetteer")
      || relative.hasSuffix(".readings")
      || relative.hasSuffix(".words") || relative == "calibration.json"
  }

  /// The text as a Swift string literal that reproduces it byte for byte.
  static func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  static func main() -> Int32 {
    let arguments = CommandLine.arguments
    guard arguments.count == 3 else {
      FileHandle.standardError.write(
        Data("usage: GrammarEmbedder <grammar folder> <output.swift>\n".utf8))
      return 2
    }
    let root = URL(fileURLWithPath: arguments[1])
    var relativePaths: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    while let relative = enumerator?.nextObject() as? String {
      if isEmbedded(relative) { relativePaths.append(relative) }
    }
    var source = """
      // Generated at build time by GrammarEmbedder from the files in Grammars/; do not edit.

      extension BuiltinGrammars {
        /// Every built-in grammar, gazetteer and calibration file, in sorted path order.
        public static let files: [File] = [

      """
    for relative in relativePaths.sorted() {
      let url = root.appendingPathComponent(relative)
      guard let data = FileManager.default.contents(atPath: url.path),
        let text = String(data: data, encoding: .utf8)
      else {
        FileHandle.standardError.write(
          Data("\(url.path):1:1: error: file is not readable UTF-8 text\n".utf8))
        return 1
      }
      source += "    File(path: \(literal(relative)), text: \(literal(text))),\n"
    }
    source += "  ]\n}\n"
    do {
      try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
    } catch {
      FileHandle.standardError.write(Data("error: cannot write '\(arguments[2])': \(error)\n".utf8))
      return 1
    }
    return 0
  }
}

exit(GrammarEmbedder.main())
