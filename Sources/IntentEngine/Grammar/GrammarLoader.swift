public import Foundation
internal import BuiltinGrammars

/// Finds grammar files and the calibration under grammar folders, in sorted order.
public enum GrammarLoader {
  /// The sources and calibration found under some grammar folders.
  public struct Loaded: Sendable {
    /// Every `.grammar` file, built-ins first, each folder in sorted path order.
    public var sources: [GrammarSource]
    /// The last `calibration.json` found, or the default.
    public var calibration: Calibration
    /// Problems that do not fail the load: a folder with no grammar, a misspelt extension.
    public var warnings: [Diagnostic] = []

    /// Creates a load result; an empty one starts a load without the built-ins.
    public init(sources: [GrammarSource], calibration: Calibration, warnings: [Diagnostic] = []) {
      self.sources = sources
      self.calibration = calibration
      self.warnings = warnings
    }
  }

  /// The file name of a folder's calibration, written by `intent calibrate`.
  public static let calibrationFileName = "calibration.json"

  /// Largest grammar file read, in bytes: the biggest built-in file is about 15 KB, so a larger
  /// one is a mistake (a data file given as a grammar) and is refused before it is read.
  public static let maximumFileBytes = 1 << 20

  /// Reads every grammar file under `roots`.
  ///
  /// A file directly in a root belongs to the language named by the root folder; a file in a
  /// sub-folder belongs to the language named by that sub-folder (`zh/`, `en/`).
  /// - Throws: ``GrammarError`` when a folder or file cannot be read or the calibration is invalid.
  public static func load(roots: [(url: URL, displayPath: String)]) throws(GrammarError) -> Loaded {
    try load(roots: roots, after: Loaded(sources: [], calibration: .default))
  }

  /// The grammars and calibration embedded in the binary, named as `Grammars/…` in diagnostics.
  ///
  /// - Throws: ``GrammarError`` when the embedded calibration is invalid.
  public static func builtin() throws(GrammarError) -> Loaded {
    var sources: [GrammarSource] = []
    for file in BuiltinGrammars.files where file.path.hasSuffix(".grammar") {
      let parts = file.path.split(separator: "/")
      let language = parts.count > 1 ? String(parts[0]) : "Grammars"
      sources.append(
        GrammarSource(
          path: "Grammars/" + file.path, language: language, text: file.text, folder: "Grammars"))
    }
    var calibration = Calibration.default
    if let file = BuiltinGrammars.file(at: calibrationFileName) {
      calibration = try decodeCalibration(
        Data(file.text.utf8), display: "Grammars/" + calibrationFileName)
    }
    return Loaded(sources: sources, calibration: calibration)
  }

  /// Decodes and checks a calibration file.
  static func decodeCalibration(_ data: Data, display: String) throws(GrammarError) -> Calibration {
    let decoded: Calibration
    do {
      decoded = try JSONDecoder().decode(Calibration.self, from: data)
    } catch {
      throw GrammarError(diagnostics: [
        Diagnostic(path: display, line: 1, column: 1, .invalidCalibration)
      ])
    }
    if let problem = decoded.problem() {
      throw GrammarError(diagnostics: [Diagnostic(path: display, line: 1, column: 1, "\(problem)")])
    }
    return decoded
  }

  /// Reads every grammar file under `roots` after those `base` already holds.
  ///
  /// A calibration found under a root replaces the one in `base`.
  /// - Throws: ``GrammarError`` when a folder or file cannot be read or the calibration is invalid.
  public static func load(roots: [(url: URL, displayPath: String)], after base: Loaded)
    throws(GrammarError) -> Loaded
  {
    var sources = base.sources
    var calibration = base.calibration
    var diagnostics: [Diagnostic] = []
    var warnings = base.warnings
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
      var nearMisses: [String] = []
      while let relative = enumerator?.nextObject() as? String {
        if relative.hasSuffix(".grammar") {
          relativePaths.append(relative)
        } else if isNearMiss(relative) {
          nearMisses.append(relative)
        }
      }
      func display(_ relative: String) -> String {
        root.displayPath.hasSuffix("/")
          ? root.displayPath + relative : root.displayPath + "/" + relative
      }
      for relative in nearMisses.sorted() {
        let name = String(relative.split(separator: "/").last ?? Substring(relative))
        warnings.append(
          Diagnostic(
            path: display(relative), line: 1, column: 1, severity: .warning,
            .nearMissExtension(name)))
      }
      if relativePaths.isEmpty {
        warnings.append(
          Diagnostic(path: root.displayPath, line: 1, column: 1, severity: .warning, .noGrammarFile)
        )
      }
      for relative in relativePaths.sorted() {
        let parts = relative.split(separator: "/")
        let language = parts.count > 1 ? String(parts[0]) : root.url.lastPathComponent
        appendSource(
          root.url.appendingPathComponent(relative), display: display(relative), language: language,
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
      if let size = (try? files.attributesOfItem(atPath: url.path))?[.size] as? Int,
        size > Self.maximumFileBytes
      {
        diagnostics.append(
          Diagnostic(path: display, line: 1, column: 1, .tooLarge(bytes: size)))
        return
      }
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
    if !diagnostics.isEmpty { throw GrammarError(diagnostics: diagnostics + warnings) }
    return Loaded(sources: sources, calibration: calibration, warnings: warnings)
  }

  /// Whether a file looks meant as a grammar but is not named `.grammar` (`light.gramar`).
  static func isNearMiss(_ relative: String) -> Bool {
    guard let dot = relative.lastIndex(of: "."), !relative[dot...].contains("/") else {
      return false
    }
    let pathExtension = String(relative[relative.index(after: dot)...]).lowercased()
    return pathExtension == "grammar"
      || Spelling.editDistance(pathExtension, "grammar") <= 2 && pathExtension.count >= 5
  }
}

extension Diagnostic.Message {
  static let missingFolder: Self = "no such grammar folder; check the path given to '--grammars'"
  static let notAGrammar: Self = "not a grammar folder or '.grammar' file"
  static let noGrammarFile: Self =
    "folder holds no '.grammar' file, so no intent is loaded from it; check the path"
  static func nearMissExtension(_ name: String) -> Self {
    let stem = name.split(separator: ".").dropLast().joined(separator: ".")
    return "file '\(name)' is not read: only '.grammar' files are; rename it '\(stem).grammar'"
  }
  static let unreadable: Self = "file cannot be read; check its permissions"
  static let notUTF8: Self = "file is not valid UTF-8; save it as UTF-8"
  static func tooLarge(bytes: Int) -> Self {
    "file is \(bytes) bytes; a grammar file holds at most \(GrammarLoader.maximumFileBytes); split it into several '.grammar' files"
  }
  static let invalidCalibration: Self =
    "calibration file is not valid; rerun 'intent calibrate' or delete the file"
}
