/// A read-only map from non-zero packed keys to values, looked up with a multiply and a shift
/// instead of hashing: the indexes of near keywords probe it for every word of an utterance.
struct PackedKeyTable<Value: Sendable>: Sendable {
  /// Open-addressing slots of keys (0 = empty) and, per slot, its value.
  private var keys: [UInt64] = []
  private var values: [Value] = []
  private var shift: UInt64 = 64

  private static var multiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

  /// An empty table.
  init() {}

  /// The table of `map`, whose keys must not be 0; `filler` fills the empty slots.
  init(_ map: [UInt64: Value], filler: Value) {
    var capacity = 16
    while capacity < map.count * 2 { capacity *= 2 }
    shift = UInt64(64 - capacity.trailingZeroBitCount)
    keys = [UInt64](repeating: 0, count: capacity)
    values = [Value](repeating: filler, count: capacity)
    for (key, value) in map {
      var slot = Int((key &* Self.multiplier) >> shift)
      while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
      keys[slot] = key
      values[slot] = value
    }
  }

  /// Whether the table holds no key.
  var isEmpty: Bool { keys.isEmpty }

  /// The value of `key`, if present.
  @inline(__always)
  subscript(key: UInt64) -> Value? {
    guard !keys.isEmpty else { return nil }
    var slot = Int((key &* Self.multiplier) >> shift)
    while keys[slot] != 0 {
      if keys[slot] == key { return values[slot] }
      slot = (slot + 1) & (keys.count - 1)
    }
    return nil
  }
}
