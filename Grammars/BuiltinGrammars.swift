public import Foundation

/// The grammars that ship with the engine, bundled as package resources.
public enum BuiltinGrammars {
  /// The folder holding one sub-folder per language plus `shared/` gazetteers.
  ///
  /// Found once per process: looking the bundle up costs more than reading a small grammar.
  public static let directory: URL = Bundle.module.bundleURL
}
