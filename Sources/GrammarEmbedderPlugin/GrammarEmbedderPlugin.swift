import Foundation
import PackagePlugin

/// Embeds the built-in grammars, gazetteers, Mandarin readings and calibration in the `BuiltinGrammars` module.
///
/// Runs `GrammarEmbedder` whenever a file under `Grammars/` changes, so the generated source
/// always matches the files and an `intent` binary is self-contained.
@main
struct GrammarEmbedderPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let root = target.directoryURL
    var inputs: [URL] = []
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    while let relative = enumerator?.nextObject() as? String {
      if relative.hasSuffix(".grammar") || relative.hasSuffix(".gazetteer")
        || relative.hasSuffix(".readings")
        || relative.hasSuffix(".words") || relative == "calibration.json"
      {
        inputs.append(root.appendingPathComponent(relative))
      }
    }
    let output = context.pluginWorkDirectoryURL.appendingPathComponent(
      "BuiltinGrammars+Files.swift")
    return [
      .buildCommand(
        displayName: "Embedding the built-in grammars",
        executable: try context.tool(named: "GrammarEmbedder").url,
        arguments: [root.path, output.path],
        inputFiles: inputs.sorted { $0.path < $1.path }, outputFiles: [output])
    ]
  }
}
