public import Foundation

/// The grammars that ship with the engine, bundled as package resources.
public enum BuiltinGrammars {
  /// The folder holding one sub-folder per language plus `shared/` gazetteers.
  public static var directory: URL {
    Bundle.module.bundleURL
  }
}
