/// The grammars, gazetteers and calibration that ship with the engine, embedded in the binary.
///
/// The build generates ``files`` from the folder `Grammars/`, so a copied executable needs no
/// resource bundle beside it, and an edited grammar takes effect at the next build.
public enum BuiltinGrammars {
  /// One built-in file: its path relative to `Grammars/` and its UTF-8 text.
  public struct File: Sendable {
    /// The path relative to `Grammars/`, such as `zh/timer.grammar`.
    public let path: String
    /// The file's whole text.
    public let text: String
  }

  /// The file at `path` relative to `Grammars/`, if it is built in.
  public static func file(at path: String) -> File? {
    files.first { $0.path == path }
  }
}
