// swift-tools-version:6.2
import PackageDescription

/// Settings every target shares: Swift 6 mode plus the upcoming features STYLE.md §6 names.
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
  name: "SkillRouter",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "IntentEngine", targets: ["IntentEngine"]),
    .library(name: "Skills", targets: ["Skills"]),
    .library(name: "CloudFallback", targets: ["CloudFallback"]),
    .library(name: "SkillRouter", targets: ["SkillRouter"]),
    .library(name: "BuiltinSkills", targets: ["BuiltinSkills"]),
    .executable(name: "intent", targets: ["intent"]),
    .executable(name: "intent-benchmarks", targets: ["IntentBenchmarks"]),
  ],
  targets: [
    // The top-level Grammars/ folder, embedded in the binary as generated Swift source so that a
    // copied `intent` runs without a resource bundle; the plugin regenerates it when a file changes.
    .executableTarget(name: "GrammarEmbedder", swiftSettings: strictSettings),
    .plugin(
      name: "GrammarEmbedderPlugin", capability: .buildTool(), dependencies: ["GrammarEmbedder"],
      path: "Sources/GrammarEmbedderPlugin"),
    .target(
      name: "BuiltinGrammars", path: "Grammars",
      exclude: ["README.md", "zh", "en", "shared", "calibration.json"],
      sources: ["BuiltinGrammars.swift"],
      swiftSettings: strictSettings, plugins: ["GrammarEmbedderPlugin"]),
    .target(name: "IntentEngine", dependencies: ["BuiltinGrammars"], swiftSettings: strictSettings),
    .target(name: "Skills", swiftSettings: strictSettings),
    .target(name: "CloudFallback", dependencies: ["Skills"], swiftSettings: strictSettings),
    .target(
      name: "SkillRouter", dependencies: ["IntentEngine", "Skills", "CloudFallback"],
      swiftSettings: strictSettings),
    .target(name: "BuiltinSkills", dependencies: ["Skills"], swiftSettings: strictSettings),
    .executableTarget(
      name: "intent",
      dependencies: ["IntentEngine", "Skills", "CloudFallback", "SkillRouter", "BuiltinSkills"],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "IntentBenchmarks", dependencies: ["IntentEngine"], path: "Benchmarks/Sources",
      swiftSettings: strictSettings),

    .target(
      name: "TestSupport", dependencies: ["IntentEngine"], path: "Tests/TestSupport",
      swiftSettings: strictSettings),
    .testTarget(
      name: "IntentEngineTests", dependencies: ["IntentEngine", "BuiltinGrammars", "TestSupport"],
      exclude: ["FuzzRegressions"], swiftSettings: strictSettings),
    .testTarget(
      name: "SkillsTests", dependencies: ["Skills", "TestSupport"], swiftSettings: strictSettings),
    .testTarget(
      name: "CloudFallbackTests", dependencies: ["CloudFallback", "TestSupport"],
      exclude: ["FuzzRegressions"], swiftSettings: strictSettings),
    .testTarget(
      name: "SkillRouterTests", dependencies: ["SkillRouter", "TestSupport"],
      exclude: ["FuzzRegressions"], swiftSettings: strictSettings),
    .testTarget(
      name: "BuiltinSkillsTests", dependencies: ["BuiltinSkills", "TestSupport"],
      exclude: ["FuzzRegressions"], swiftSettings: strictSettings),
    .testTarget(
      name: "intentTests", dependencies: ["intent", "TestSupport"], swiftSettings: strictSettings),
  ]
)
