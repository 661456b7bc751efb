import BuiltinGrammars
import Foundation
import IntentEngine
import TestSupport
import Testing

struct BuiltinGrammarsTests {
  /// The files under `Grammars/` that the engine reads, by relative path.
  static func filesOnDisk() throws -> [String: String] {
    var files: [String: String] = [:]
    let root = FixturePaths.grammars.path
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let relative = enumerator?.nextObject() as? String {
      guard
        relative.hasSuffix(".grammar") || relative.hasSuffix(".gazetteer")
          || relative.hasSuffix(".readings") || relative.hasSuffix(".words")
          || relative == "calibration.json"
      else { continue }
      files[relative] = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }
    return files
  }

  @Test func embeddedFilesAreExactlyTheFilesInTheGrammarFolder() throws {
    let onDisk = try Self.filesOnDisk()
    let embedded = BuiltinGrammars.files
    #expect(embedded.map(\.path) == onDisk.keys.sorted())
    for file in embedded {
      #expect(file.text == onDisk[file.path], "'\(file.path)' differs from Grammars/\(file.path)")
    }
    #expect(onDisk.keys.contains("zh/timer.grammar"))
    #expect(onDisk.keys.contains("shared/places.gazetteer"))
    #expect(onDisk.keys.contains("shared/mandarin.readings"))
  }

  @Test func builtinLoadNamesFilesAsGrammarsPaths() throws {
    let loaded = try GrammarLoader.builtin()
    #expect(
      loaded.sources.contains { $0.path == "Grammars/zh/timer.grammar" && $0.language == "zh" })
    #expect(
      loaded.sources.contains { $0.path == "Grammars/en/timer.grammar" && $0.language == "en" })
    let shipped = try JSONDecoder().decode(
      Calibration.self,
      from: Data(contentsOf: FixturePaths.grammars.appendingPathComponent("calibration.json")))
    #expect(loaded.calibration == shipped)
  }
}
