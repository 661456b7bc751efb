public import Foundation

/// Locations of the repository's fixture and grammar folders, for tests.
public enum FixturePaths {
  /// The repository root, found from this source file's location.
  public static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// `Fixtures/`.
  public static var fixtures: URL { root.appendingPathComponent("Fixtures") }
  /// `Grammars/`.
  public static var grammars: URL { root.appendingPathComponent("Grammars") }
}
