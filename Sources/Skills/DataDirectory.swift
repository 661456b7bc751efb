public import Foundation

/// Where stores and caches live: `INTENT_DATA_DIR`, else the platform's user data folder.
public enum DataDirectory {
  /// The folder name under the platform's data folder.
  public static let folderName = "skillrouter"

  /// Resolves the data folder from the environment, without creating it.
  ///
  /// `INTENT_DATA_DIR` wins; then `$XDG_DATA_HOME/skillrouter`; then
  /// `~/.local/share/skillrouter` (on Apple platforms `~/Library/Application Support/skillrouter`).
  public static func url(environment: [String: String]) -> URL {
    if let explicit = environment["INTENT_DATA_DIR"], !explicit.isEmpty {
      return URL(fileURLWithPath: explicit, isDirectory: true)
    }
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(folderName)
    }
    let home =
      environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? FileManager.default.homeDirectoryForCurrentUser.path
    #if canImport(Darwin)
      return URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent("Library/Application Support/\(folderName)")
    #else
      return URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share/\(folderName)")
    #endif
  }
}
