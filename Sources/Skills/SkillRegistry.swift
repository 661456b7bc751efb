/// An immutable snapshot of the skills available, built once at start-up and shared.
///
/// Skills are never added while the router runs: what the registry holds at start-up is what
/// the router can call, so a missing skill is reported before anyone asks for it.
public struct SkillRegistry: Sendable {
  /// The skills, sorted by intent id.
  public let skills: [AnySkill]
  private let byIntent: [String: AnySkill]

  /// Builds a snapshot.
  ///
  /// - Throws: ``SkillError/duplicateIntent(_:first:second:)`` when two skills claim one intent.
  public init(_ skills: [AnySkill]) throws(SkillError) {
    var byIntent: [String: AnySkill] = [:]
    for skill in skills {
      if let existing = byIntent[skill.intentID] {
        throw .duplicateIntent(
          skill.intentID, first: existing.displayName, second: skill.displayName)
      }
      byIntent[skill.intentID] = skill
    }
    self.byIntent = byIntent
    self.skills = skills.sorted { $0.intentID < $1.intentID }
  }

  /// The skill that handles `intentID`, or nil when none is registered.
  public func skill(for intentID: String) -> AnySkill? { byIntent[intentID] }

  /// Compares the registered skills with the intents the grammars declare.
  public func coverage(ofDeclaredIntents declared: [String]) -> RegistryCoverage {
    let declaredSet = Set(declared)
    return RegistryCoverage(
      intentsWithoutSkills: declaredSet.filter { byIntent[$0] == nil }.sorted(),
      skillsWithoutIntents: skills.filter { !declaredSet.contains($0.intentID) }
        .map { "\($0.intentID)" })
  }
}

/// The mismatch between grammars and skills that start-up reports.
public struct RegistryCoverage: Sendable, Equatable {
  /// Intents the grammars declare that no skill handles yet, sorted.
  public var intentsWithoutSkills: [String]
  /// Intents that skills handle but no grammar declares, sorted.
  public var skillsWithoutIntents: [String]

  /// Creates a coverage report.
  public init(intentsWithoutSkills: [String], skillsWithoutIntents: [String]) {
    self.intentsWithoutSkills = intentsWithoutSkills
    self.skillsWithoutIntents = skillsWithoutIntents
  }

  /// One line per kind of mismatch, for the start-up report; empty when everything matches.
  public var messages: [String] {
    var lines: [String] = []
    if !intentsWithoutSkills.isEmpty {
      let names = intentsWithoutSkills.map { "'\($0)'" }.joined(separator: ", ")
      lines.append(
        "no skill yet for \(names); commands for these intents report that the skill is not available"
      )
    }
    if !skillsWithoutIntents.isEmpty {
      let names = skillsWithoutIntents.map { "'\($0)'" }.joined(separator: ", ")
      lines.append("skills for \(names) are never called; no grammar declares these intents")
    }
    return lines
  }
}
