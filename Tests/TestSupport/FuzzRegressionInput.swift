import Foundation
public import Testing

/// One saved input from a `FuzzRegressions/<target>/` folder, replayed as a test case.
///
/// `scripts/fuzz.sh` saves every input that crashed a fuzz target there; the module's
/// `FuzzRegressionTests` feed each through the same calls as the target, so a crash that comes
/// back fails `swift test`.
public struct FuzzRegressionInput: Sendable, CustomTestStringConvertible {
  /// The file name, such as `crash-3f2a…` or `deep-braces`.
  public var name: String
  /// The input's bytes, exactly as the fuzzer produced them.
  public var bytes: [UInt8]

  public var testDescription: String { "\(name) (\(bytes.count) bytes)" }

  /// The bytes decoded leniently as UTF-8, as the fuzz targets decode them.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Every input saved for `target` under `Tests/<testTarget>/FuzzRegressions/`, in name order.
  ///
  /// A `README.md` in the folder describes it and is not an input.
  public static func saved(for target: String, in testTarget: String) -> [Self] {
    let folder = FixturePaths.root.appendingPathComponent("Tests").appendingPathComponent(
      testTarget
    ).appendingPathComponent("FuzzRegressions").appendingPathComponent(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0 != "README.md" && !$0.hasPrefix(".") }.sorted().compactMap { name in
      FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map {
        Self(name: name, bytes: [UInt8]($0))
      }
    }
  }
}
