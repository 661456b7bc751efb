public import Foundation

/// The executables the package builds, found beside the test bundle.
public enum BuiltProducts {
  /// The built executable named `name` (such as `intent`), or nil when it is not there.
  public static func executable(named name: String) -> URL? {
    var folders: [URL] = []
    if let executable = Bundle.main.executableURL {
      folders.append(executable.deletingLastPathComponent())
    }
    // On Apple platforms the tests run from `<products>/X.xctest/Contents/MacOS`.
    folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
      folders.append(bundle.bundleURL.deletingLastPathComponent())
    }
    for folder in folders {
      let candidate = folder.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}
