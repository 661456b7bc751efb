import Foundation
import TestSupport
import Testing

@testable import IntentEngine

struct GazetteerTests {
  static let builtin = (try? Gazetteer.builtin()) ?? Gazetteer()

  @Test func builtinGazetteerLoadsProvincesCitiesAndWorldCities() throws {
    let gazetteer = try Gazetteer.builtin()
    let forms = Set(gazetteer.surfaceForms)
    for form in [
      "杭州", "杭州市", "hangzhou", "浙江省", "四川", "乌鲁木齐", "new york", "纽约", "paris", "我这儿", "here",
    ] {
      #expect(forms.contains(form), "missing surface form '\(form)'")
    }
    #expect(gazetteer.places.count >= 500)
  }

  @Test func everyPlaceNameSurvivesNumeralConversion() {
    for form in Self.builtin.surfaceForms {
      #expect(Normalizer().normalize(form).numbers.isEmpty, "'\(form)' is read as a number")
    }
  }

  struct Mention: Sendable, CustomTestStringConvertible {
    var text: String
    var name: String
    var testDescription: String { "\(text) → \(name)" }
  }

  @Test(arguments: [
    Mention(text: "杭州明天下雨吗", name: "杭州"),
    Mention(text: "杭州市", name: "杭州"),
    Mention(text: "廣州", name: "广州"),
    Mention(text: "weather in Hangzhou", name: "Hangzhou"),
    Mention(text: "NEW YORK", name: "New York"),
    Mention(text: "xi'an", name: "Xi'an"),
    Mention(text: "Ｐａｒｉｓ", name: "Paris"),
    Mention(text: "我这儿冷吗", name: "here"),
    Mention(text: "is it cold outside", name: "here"),
  ])
  func resolvesMentionsByScript(_ m: Mention) {
    let text = Normalizer().normalize(m.text)
    let extractor = EntityExtractor(gazetteer: Self.builtin)
    let places = extractor.entities(in: text, context: ParseContext()).compactMap { entity in
      if case .location(let place) = entity.value { return place } else { return nil }
    }
    #expect(places.map(\.name) == [m.name])
    if m.name == "here" { #expect(places.first?.isCurrentLocation == true) }
  }

  @Test func latinNamesMatchOnlyWholeWords() {
    let text = Normalizer().normalize("parisian romance")
    let entities = EntityExtractor(gazetteer: Self.builtin).entities(
      in: text, context: ParseContext())
    #expect(!entities.contains { $0.type == .location })
  }

  @Test func firstDefinitionOfASharedFormWins() throws {
    let gazetteer = try Gazetteer.parse(
      """
      @region 江苏 Jiangsu
      苏州 | Suzhou
      @region 安徽 Anhui
      宿州 | Suzhou
      """, path: "t.gazetteer")
    let text = Normalizer().normalize("suzhou")
    let entity = EntityExtractor(gazetteer: gazetteer).entities(in: text, context: ParseContext())
      .first
    #expect(
      entity?.value
        == .location(LocationValue(name: "Suzhou", englishName: "Suzhou", region: "Jiangsu")))
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var source: String
    var message: String
    var testDescription: String { message }
  }

  @Test(arguments: [
    Malformed(
      source: "1️⃣@regoin 浙江 Zhejiang",
      message: "unknown directive '@regoin'; did you mean '@region'?"),
    Malformed(
      source: "杭州 | Hangzhou\n1️⃣宁波",
      message: "a place is written '中文名 | English name | aliases', not '宁波'"),
    Malformed(
      source: "1️⃣Hangzhou | 杭州", message: "a place starts with its Chinese name, not 'Hangzhou'"),
    Malformed(
      source: "杭州 | 1️⃣杭州", message: "the second field is the English name in Latin letters, not '杭州'"
    ),
    Malformed(
      source: "1️⃣@region 浙江",
      message: "'@region' needs a Chinese and an English name, such as '@region 浙江 Zhejiang'"),
    Malformed(
      source: "杭州 | Hangzhou\n1️⃣杭州 | Hangzhou",
      message: "place '杭州' is already defined in this region"),
  ])
  func malformedLinesAreReportedWhereTheyAre(_ m: Malformed) {
    let marked = MarkedText(m.source)
    #expect {
      _ = try Gazetteer.parse(marked.text, path: "t.gazetteer")
    } throws: { error in
      (error as? GrammarError)?.diagnostics.first { $0.severity == .error }?.description
        == "t.gazetteer:\(marked["1️⃣"]): error: \(m.message)"
    }
  }

  @Test func everyRepeatOfAPlaceNotesItsFirstDefinition() {
    do {
      _ = try Gazetteer.parse(
        "杭州 | Hangzhou\n宁波 | Ningbo\n杭州 | Hangzhou\n杭州 | Hangzhou\n", path: "t.gazetteer")
      Issue.record("a gazetteer with repeated places loaded")
    } catch {
      #expect(error.diagnostics.filter { $0.severity == .error }.map(\.line) == [3, 4])
      #expect(error.diagnostics.filter { $0.severity == .note }.map(\.line) == [1, 1])
    }
  }

  @Test func everyProblemIsReportedAndNothingIsHalfLoaded() {
    do {
      _ = try Gazetteer.parse("@bogus\n杭州 | Hangzhou\nwrong line\n", path: "t.gazetteer")
      Issue.record("a malformed gazetteer loaded")
    } catch {
      #expect(error.diagnostics.map(\.line) == [1, 3])
    }
  }

  @Test func loadReadsAFileByURL() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gazetteer-\(UUID().uuidString).gazetteer")
    try "# comment\n@region 浙江 Zhejiang\n杭州 | Hangzhou | hz\n".write(
      to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let gazetteer = try Gazetteer.load(contentsOf: url, path: "mine.gazetteer")
    #expect(gazetteer.surfaceForms == ["杭州", "hangzhou", "hz"])
  }
}
