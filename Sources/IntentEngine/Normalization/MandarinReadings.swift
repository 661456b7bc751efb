import BuiltinGrammars

/// The toneless Mandarin syllable of each CJK ideograph, from `Grammars/shared/mandarin.readings`.
///
/// Input methods type by sound, so a slip in typed Chinese is usually a homophone ("剃醒" for
/// "提醒", "背忘录" for "备忘录"): two words that read alike are near each other the way two Latin
/// words one letter apart are.
struct MandarinReadings: Sendable {
  /// Lowest code point with a reading slot (CJK Extension A).
  static let firstScalar: UInt32 = 0x3400
  /// One past the highest (end of the CJK Unified Ideographs block).
  static let endScalar: UInt32 = 0xA000

  /// Syllable number (1-based, in file order) per code point from ``firstScalar``; 0 = none.
  private let syllables: [UInt16]
  /// How many syllables the table distinguishes.
  let syllableCount: Int

  /// The readings embedded from `Grammars/shared`.
  static let builtin: MandarinReadings = {
    let file = BuiltinGrammars.files.first { $0.path == "shared/mandarin.readings" }
    return MandarinReadings(parsing: file?.text ?? "")
  }()

  /// Reads lines of a syllable, a space and the characters read that way.
  ///
  /// '#' lines are comments; a character listed twice keeps its first reading; lines without both
  /// parts are skipped.
  init(parsing text: String) {
    var table = [UInt16](repeating: 0, count: Int(Self.endScalar - Self.firstScalar))
    var count = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      guard !line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { continue }
      let characters = line[line.index(after: space)...]
      guard space > line.startIndex, !characters.isEmpty, count < Int(UInt16.max) else { continue }
      count += 1
      for scalar in characters.unicodeScalars
      where (Self.firstScalar..<Self.endScalar).contains(scalar.value) {
        let slot = Int(scalar.value - Self.firstScalar)
        if table[slot] == 0 { table[slot] = UInt16(count) }
      }
    }
    syllables = table
    syllableCount = count
  }

  /// The syllable number of `scalar`, or 0 when it is no ideograph with a known reading.
  @inline(__always)
  func syllable(of scalar: Unicode.Scalar) -> UInt16 {
    let offset = scalar.value &- Self.firstScalar
    return offset < UInt32(syllables.count) ? syllables[Int(offset)] : 0
  }
}
