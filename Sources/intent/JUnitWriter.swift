import Foundation
import IntentEngine

/// One scored fixture line: what was expected, what the engine said and how it was counted.
struct BenchLine: Sendable {
  var fixture: BenchFixture
  var result: ParseResult
  var outcome: BenchOutcome

  /// One-line account of what went wrong, for JUnit messages and failure listings.
  var summary: String {
    let expected = fixture.intent.map { "'\($0)'" } ?? "none (out of scope)"
    let got = result.intent.map { "'\($0)'" } ?? "no intent"
    var parts = [
      "expected \(expected), got \(got) at \(BenchFormat.decimal(result.confidence)) routed \(result.route.rawValue)"
    ]
    parts += outcome.slotDifferences.filter { _ in outcome.problems.contains(.slots) }
    parts += outcome.followUpDifferences.filter { _ in outcome.problems.contains(.followUp) }
    if outcome.problems.contains(.clauses), let clauses = outcome.expectedClauses {
      let render = { (ids: [IntentID?]) in
        ids.map { $0?.rawValue ?? "none" }.joined(separator: " + ")
      }
      parts.append("clauses \(render(outcome.predictedClauses)), expected \(render(clauses))")
    }
    return parts.joined(separator: "; ")
  }
}

/// Writes JUnit XML with one test case per fixture line, grouped into one suite per file.
enum JUnitWriter {
  /// The XML document for `lines`.
  static func document(_ lines: [BenchLine]) -> String {
    var suites: [(name: String, lines: [BenchLine])] = []
    for line in lines {
      if suites.last?.name == line.fixture.file {
        suites[suites.count - 1].lines.append(line)
      } else {
        suites.append((line.fixture.file, [line]))
      }
    }
    let failures = lines.filter { !$0.outcome.problems.isEmpty }.count
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"intent bench\" tests=\"\(lines.count)\" failures=\"\(failures)\">\n"
    for suite in suites {
      let suiteFailures = suite.lines.filter { !$0.outcome.problems.isEmpty }.count
      out +=
        "  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.lines.count)\" "
        + "failures=\"\(suiteFailures)\" errors=\"0\" skipped=\"0\">\n"
      for line in suite.lines {
        let name = "\(line.fixture.line): \(line.fixture.text)"
        out +=
          "    <testcase classname=\"\(escape(suite.name))\" name=\"\(escape(name))\""
        let problems = line.outcome.problems
        guard let first = problems.first else {
          out += "/>\n"
          continue
        }
        out += ">\n"
        let kinds = problems.map(\.rawValue).joined(separator: ", ")
        out +=
          "      <failure type=\"\(first.rawValue)\" message=\"\(escape(kinds + ": " + line.summary))\">"
        out += escape(explanation(of: line.result))
        out += "</failure>\n    </testcase>\n"
      }
      out += "  </testsuite>\n"
    }
    out += "</testsuites>\n"
    return out
  }

  /// The evidence behind a result, one piece per line.
  static func explanation(of result: ParseResult) -> String {
    result.explanation.map { evidence in
      let sign = evidence.contribution > 0 ? "+" : ""
      let amount =
        evidence.contribution == 0 ? "" : " \(sign)\(String(format: "%.2f", evidence.contribution))"
      return "\(evidence.kind.rawValue): \(evidence.detail)\(amount)"
    }.joined(separator: "\n")
  }

  /// Escapes text for XML attributes and content, dropping characters XML 1.0 cannot hold.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\t": out += "&#9;"
      default:
        let v = scalar.value
        let allowed =
          v >= 0x20 && v != 0xFFFE && v != 0xFFFF && !(0xD800...0xDFFF).contains(v)
        out += allowed ? String(scalar) : "\u{FFFD}"
      }
    }
    return out
  }
}
