public import Foundation

/// Finds grammar files and the calibration under grammar folders, in sorted order.
public enum GrammarLoader {
  /// The sources and calibration found under some grammar folders.
  public struct Loaded: Sendable {
    /// Every `.grammar` file, built-ins first, each folder in sorted path order.
    public var sources: [GrammarSource]
    /// The last `calibration.json` found, or the default.
    public var calibration: Calibration
  }

  /// The file name of a folder's calibration, written by `intent calibrate`.
  public static let calibrationFileName = "calibration.json"

  /// Reads every grammar file under `roots`.
  ///
  /// A file directly in a root belongs to the language named by the root folder; a file in a
  /// sub-folder belongs to the language named by that sub-folder (`zh/`, `en/`).
  /// - Throws: ``GrammarError`` when a folder or file cannot be read or the calibration is invalid.
  public static func load(roots: [(url: URL, displayPath: String)]) throws(GrammarError) -> Loaded {
    var sources: [GrammarSource] = []
    var calibration = Calibration.default
    var diagnostics: [Diagnostic] = []
    let files = FileManager.default
    for root in roots {
      var isDirectory: ObjCBool = false
      guard files.fileExists(atPath: root.url.path, isDirectory: &isDirectory) else {
        diagnostics.append(Diagnostic(path: root.displayPath, line: 1, column: 1, .missingFolder))
        continue
      }
      if !isDirectory.boolValue {
        if root.url.pathExtension == "grammar" {
          appendSource(
            root.url, display: root.displayPath, language: "user", folder: root.displayPath)
        } else {
          diagnostics.append(Diagnostic(path: root.displayPath, line: 1, column: 1, .notAGrammar))
        }
        continue
      }
      let base = root.url.standardizedFileURL.path
      let enumerator = files.enumerator(atPath: base)
      var relativePaths: [String] = []
      while let relative = enumerator?.nextObject() as? String {
        if relative.hasSuffix(".grammar") { relativePaths.append(relative) }
      }
      for relative in relativePaths.sorted() {
        let parts = relative.split(separator: "/")
        let language = parts.count > 1 ? String(parts[0]) : root.url.lastPathComponent
        let display =
          root.displayPath.hasSuffix("/")
          ? root.displayPath + relative : root.displayPath + "/" + relative
        appendSource(
          root.url.appendingPathComponent(relative), display: display, language: language,
          folder: root.displayPath)
      }
      let calibrationURL = root.url.appendingPathComponent(calibrationFileName)
      if files.fileExists(atPath: calibrationURL.path) {
        let display = root.displayPath + "/" + calibrationFileName
        do {
          let data = try Data(contentsOf: calibrationURL)
          let decoded = try JSONDecoder().decode(Calibration.self, from: data)
          if let problem = decoded.problem() {
            diagnostics.append(Diagnostic(path: display, line: 1, column: 1, "\(problem)"))
          } else {
            calibration = decoded
          }
        } catch {
          diagnostics.append(Diagnostic(path: display, line: 1, column: 1, .invalidCalibration))
        }
      }
    }
    func appendSource(_ url: URL, display: String, language: String, folder: String) {
      guard let data = files.contents(atPath: url.path) else {
        diagnostics.append(Diagnostic(path: display, line: 1, column: 1, .unreadable))
        return
      }
      guard let text = String(data: data, encoding: .utf8) else {
        diagnostics.append(Diagnostic(path: display, line: 1, column: 1, .notUTF8))
        return
      }
      sources.append(
        GrammarSource(path: display, language: language, text: text, folder: folder))
    }
    if !diagnostics.isEmpty { throw GrammarError(diagnostics: diagnostics) }
    return Loaded(sources: sources, calibration: calibration)
  }
}

extension Diagnostic.Message {
  static let missingFolder: Self = "no such grammar folder; check the path given to '--grammars'"
  static let notAGrammar: Self = "not a grammar folder or '.grammar' file"
  static let unreadable: Self = "file cannot be read; check its permissions"
  static let notUTF8: Self = "file is not valid UTF-8; save it as UTF-8"
  static let invalidCalibration: Self =
    "calibration file is not valid; rerun 'intent calibrate' or delete the file"
}
