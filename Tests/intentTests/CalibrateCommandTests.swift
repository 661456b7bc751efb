import Foundation
import IntentEngine
import Testing

@testable import intent

struct CalibrateCommandTests {
  @Test func writesACalibrationTheLoaderReads() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run([
      "calibrate", "--method", "platt", "--target-precision", "0.9", "--output",
      "grammars/calibration.json", "--write",
    ])
    #expect(output.code == 0, "\(output.stderr)")
    #expect(output.stdout.hasPrefix("intent calibrate: 4 dev lines, 3 with a candidate intent"))
    #expect(output.stdout.contains("platt, 5-fold cross-validated"))
    #expect(output.stdout.contains("← chosen"))
    #expect(output.stdout.contains("wrote grammars/calibration.json"))
    let text = try #require(scratch.read("grammars/calibration.json"))
    let calibration = try JSONDecoder().decode(Calibration.self, from: Data(text.utf8))
    #expect(calibration.problem() == nil)
    #expect(calibration.method == "platt")
    // Softmax settings are kept; the threshold is never below the floor.
    #expect(calibration.temperature == Calibration.default.temperature)
    #expect(calibration.nullScore == Calibration.default.nullScore)
    #expect(calibration.localThreshold >= CalibrateCommand.minimumLocalThreshold)
    #expect(calibration.offlineThreshold <= calibration.localThreshold)
    // The engine now loads it from the grammar folder.
    let engine = try Engine.load(
      userGrammars: [scratch.root.appendingPathComponent("grammars")], includeBuiltins: false)
    #expect(engine.calibration == calibration)
  }

  @Test func isotonicWritesKnots() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run([
      "calibrate", "--method", "isotonic", "--cloud-budget", "0.5", "--output", "cal.json",
      "--write",
    ])
    #expect(output.code == 0, "\(output.stderr)")
    let text = try #require(scratch.read("cal.json"))
    let calibration = try JSONDecoder().decode(Calibration.self, from: Data(text.utf8))
    #expect(calibration.method == "isotonic")
    #expect(calibration.knots?.isEmpty == false)
  }

  @Test func dryRunWritesNothing() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["calibrate", "--dry-run", "--target-precision", "0.9"])
    #expect(output.code == 0, "\(output.stderr)")
    #expect(output.stdout.contains("dry run: nothing written"))
    #expect(!scratch.exists("Grammars/calibration.json"))
  }

  @Test func withoutWriteShowsWhatWouldChangeAndWritesNothing() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run(["calibrate", "--target-precision", "0.9"])
    #expect(output.code == 0, "\(output.stderr)")
    #expect(output.stdout.contains("would change Grammars/calibration.json:"))
    #expect(output.stdout.contains("made_by"))
    #expect(output.stdout.contains("add '--write' to write Grammars/calibration.json"))
    #expect(!scratch.exists("Grammars/calibration.json"))
    #expect(await scratch.run(["calibrate", "--write", "--dry-run"]).code == 2)
  }

  @Test func writtenFileRecordsItsCommandAndInputsAndIsReproduced() async throws {
    let scratch = try BenchScratch()
    let arguments = ["calibrate", "--target-precision", "0.9", "--output", "cal.json"]
    let first = await scratch.run(arguments + ["--write"])
    #expect(first.code == 0, "\(first.stderr)")
    let text = try #require(scratch.read("cal.json"))
    let calibration = try JSONDecoder().decode(Calibration.self, from: Data(text.utf8))
    let made = try #require(calibration.provenance)
    // BenchScratch adds its grammar folder to every command.
    #expect(
      made.command
        == "intent " + arguments.joined(separator: " ")
        + " --no-builtin --grammars grammars --write")
    let fixture = try #require(scratch.read("Fixtures/en/lines.jsonl"))
    #expect(
      made.inputs.first
        == .init(path: "Fixtures/en/lines.jsonl", sha256: SHA256.hexDigest(of: Array(fixture.utf8)))
    )
    #expect(made.inputs.last?.path == "grammars in force")
    #expect(text.contains("\"made_by\""))

    // The same command on the same files finds nothing to change.
    let again = await scratch.run(arguments)
    #expect(again.stdout.contains("cal.json is up to date: this fit reproduces it"))
  }

  @Test func fitsOnDevLinesOnly() async throws {
    let scratch = try BenchScratch()
    try scratch.write(
      #"{"text": "weather", "intent": "weather.query", "split": "test"}"# + "\n",
      to: "Fixtures/en/lines.jsonl")
    let output = await scratch.run(["calibrate", "--dry-run"])
    #expect(output.code == 1)
    #expect(output.stderr.hasPrefix("error: no 'dev' fixture lines to fit on"))
  }

  @Test func unreachablePrecisionWritesNothingAndFails() async throws {
    let scratch = try BenchScratch()
    // Every dev line that matches is wrong, so no threshold reaches any precision.
    try scratch.write(
      """
      {"text": "weather today", "intent": null, "split": "dev"}
      {"text": "cancel my timer", "intent": null, "split": "dev"}

      """, to: "Fixtures/en/lines.jsonl")
    let output = await scratch.run(["calibrate", "--target-precision", "0.5"])
    #expect(output.code == 1)
    #expect(output.stderr.contains("no local threshold meets the goal"))
    #expect(!scratch.exists("Grammars/calibration.json"))
  }

  @Test func eachPathCanBeHeldToItsOwnPrecision() async throws {
    let scratch = try BenchScratch()
    // A second set of the fixtures' own dev lines, labelled otherwise: its lines go local
    // exactly when theirs do, so the pool reaches 30% while that set on its own never reaches
    // 90%.
    try scratch.write(
      """
      {"text": "weather today", "intent": "timer.cancel", "split": "dev"}
      {"text": "cancel my timer", "intent": "weather.query", "split": "dev"}
      {"text": "umbrella today", "intent": null, "split": "dev"}

      """, to: "relabelled.jsonl")
    let paths = ["Fixtures", "relabelled.jsonl"]
    let pooled = await scratch.run(["calibrate", "--target-precision", "0.3"] + paths)
    #expect(pooled.code == 0, "\(pooled.stderr)")
    #expect(pooled.stdout.contains("← chosen"))
    let floored = await scratch.run(
      ["calibrate", "--target-precision", "0.3", "--set-precision", "0.9"] + paths)
    #expect(floored.code == 1)
    #expect(floored.stderr.contains("each path ≥ 90.0%"))
    #expect(!scratch.exists("Grammars/calibration.json"))
    let conflicting = await scratch.run([
      "calibrate", "--set-precision", "0.9", "--cloud-budget", "0.1",
    ])
    #expect(conflicting.code == 2)
  }

  @Test func conflictingGoalsAreAUsageError() async throws {
    let scratch = try BenchScratch()
    let output = await scratch.run([
      "calibrate", "--target-precision", "0.9", "--cloud-budget", "0.1",
    ])
    #expect(output.code == 2)
    #expect(await scratch.run(["calibrate", "--method", "spline"]).code == 2)
    #expect(await scratch.run(["calibrate", "--target-precision", "1.5"]).code == 2)
  }
}
