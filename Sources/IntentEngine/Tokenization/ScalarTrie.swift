/// A prefix tree over Unicode scalars for longest-match lookups in the lexicon and gazetteers.
///
/// Edges live in one open-addressing hash table keyed by (node, scalar) with a multiplicative
/// hash, so a lookup step is one or two probes with no hashing library call, and the trie is one
/// flat value that can be shared across threads without locks.
public struct ScalarTrie<Value: Sendable>: Sendable {
  private var edges = EdgeTable()
  private var values: [Value?] = [nil]

  /// Creates an empty trie.
  public init() {}

  /// The number of words stored.
  public private(set) var count = 0

  /// Stores `value` for `word`, replacing any previous value.
  public mutating func insert(_ word: some Collection<Unicode.Scalar>, value: Value) {
    guard !word.isEmpty else { return }
    let node = path(to: word)
    if values[Int(node)] == nil { count += 1 }
    values[Int(node)] = value
  }

  /// The node `word` leads to, with the nodes on the way created as needed.
  private mutating func path(to word: some Collection<Unicode.Scalar>) -> Int32 {
    var node: Int32 = 0
    for scalar in word {
      let next = Int32(values.count)
      if let existing = edges.childOrInsert(Self.key(node, scalar), child: next) {
        node = existing
      } else {
        values.append(nil)
        node = next
      }
    }
    return node
  }

  /// Stores `value` for `word` unless the word has a value already, in one walk down the trie.
  ///
  /// - Returns: the value already stored, or nil when `value` was stored. An empty word stores
  ///   nothing and returns nil.
  @discardableResult
  public mutating func insertIfAbsent(_ word: some Collection<Unicode.Scalar>, value: Value)
    -> Value?
  {
    guard !word.isEmpty else { return nil }
    let node = path(to: word)
    if let existing = values[Int(node)] { return existing }
    count += 1
    values[Int(node)] = value
    return nil
  }

  /// Stores `value` for `word`, or merges it into the value already there.
  public mutating func insert(
    _ word: some Collection<Unicode.Scalar>, value: Value, merging: (Value, Value) -> Value
  ) {
    if let existing = self.value(for: word) {
      insert(word, value: merging(existing, value))
    } else {
      insert(word, value: value)
    }
  }

  /// The value stored for exactly `word`.
  public func value(for word: some Collection<Unicode.Scalar>) -> Value? {
    var node: Int32 = 0
    for scalar in word {
      guard let next = edges.child(for: Self.key(node, scalar)) else { return nil }
      node = next
    }
    return values[Int(node)]
  }

  /// The longest stored word starting at `start`, as its end offset and value.
  ///
  /// - Complexity: O(length of the longest stored word).
  public func longestMatch(in scalars: [Unicode.Scalar], from start: Int, limit: Int? = nil) -> (
    end: Int, value: Value
  )? {
    var node: Int32 = 0
    var best: (end: Int, value: Value)?
    var i = start
    let end = min(limit ?? scalars.count, scalars.count)
    while i < end {
      guard let next = edges.child(for: Self.key(node, scalars[i])) else { break }
      node = next
      i += 1
      if let value = values[Int(node)] { best = (i, value) }
    }
    return best
  }

  /// Every stored word starting at `start`, shortest first, as end offsets and values.
  public func matches(in scalars: [Unicode.Scalar], from start: Int) -> [(end: Int, value: Value)] {
    var node: Int32 = 0
    var found: [(end: Int, value: Value)] = []
    var i = start
    while i < scalars.count {
      guard let next = edges.child(for: Self.key(node, scalars[i])) else { break }
      node = next
      i += 1
      if let value = values[Int(node)] { found.append((i, value)) }
    }
    return found
  }

  /// Calls `body` with every stored word starting at `start`, shortest first, as its end offset
  /// and value: the words of ``matches(in:from:)``, read in place without building an array or an
  /// iterator that holds copies of the trie's arrays.
  @inline(__always)
  func forEachMatch(
    in scalars: [Unicode.Scalar], from start: Int, _ body: (_ end: Int, _ value: Value) -> Void
  ) {
    var node: Int32 = 0
    var i = start
    while i < scalars.count {
      guard let next = edges.child(for: Self.key(node, scalars[i])) else { return }
      node = next
      i += 1
      if let value = values[Int(node)] { body(i, value) }
    }
  }

  @inline(__always)
  private static func key(_ node: Int32, _ scalar: Unicode.Scalar) -> UInt64 {
    UInt64(UInt32(bitPattern: node)) << 21 | UInt64(scalar.value)
  }
}

/// An open-addressing map from trie edge keys to child nodes, with linear probing.
private struct EdgeTable: Sendable {
  private var keys: [UInt64] = Array(repeating: 0, count: 16)
  /// Child node + 1, so that 0 marks an empty slot.
  private var children: [Int32] = Array(repeating: 0, count: 16)
  private var count = 0
  private var shift: UInt64 = 60

  @inline(__always)
  private func slot(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The child reached by `key`, if any.
  @inline(__always)
  func child(for key: UInt64) -> Int32? {
    let mask = keys.count - 1
    var i = slot(key)
    while true {
      let stored = children[i]
      if stored == 0 { return nil }
      if keys[i] == key { return stored - 1 }
      i = (i + 1) & mask
    }
  }

  /// The child reached by `key`, or nil once `child` is stored for it, in a single probe.
  ///
  /// A lookup and an insertion take two; the table grows just as ``insert(_:child:)`` grows it.
  @inline(__always)
  mutating func childOrInsert(_ key: UInt64, child: Int32) -> Int32? {
    let mask = keys.count - 1
    var i = slot(key)
    while true {
      let stored = children[i]
      if stored == 0 { break }
      if keys[i] == key { return stored - 1 }
      i = (i + 1) & mask
    }
    if (count + 1) * 2 > keys.count {
      insert(key, child: child)
      return nil
    }
    keys[i] = key
    children[i] = child + 1
    count += 1
    return nil
  }

  mutating func insert(_ key: UInt64, child: Int32) {
    if (count + 1) * 2 > keys.count { grow() }
    let mask = keys.count - 1
    var i = slot(key)
    while children[i] != 0 {
      if keys[i] == key {
        children[i] = child + 1
        return
      }
      i = (i + 1) & mask
    }
    keys[i] = key
    children[i] = child + 1
    count += 1
  }

  /// Doubles the table, placing the old entries in their old order, as inserting them would.
  private mutating func grow() {
    let oldKeys = keys
    let oldChildren = children
    keys = Array(repeating: 0, count: oldKeys.count * 2)
    children = Array(repeating: 0, count: oldKeys.count * 2)
    shift -= 1
    let mask = keys.count - 1
    for old in oldKeys.indices where oldChildren[old] != 0 {
      let key = oldKeys[old]
      var i = slot(key)
      while children[i] != 0 { i = (i + 1) & mask }
      keys[i] = key
      children[i] = oldChildren[old]
    }
  }
}
