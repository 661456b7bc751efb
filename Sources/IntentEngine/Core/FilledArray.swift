extension Array {
  /// An array of `count` copies of `value`, for the scratch arrays every parse makes.
  ///
  /// The same as `Array(repeating:count:)`, through the code this module specialises: on Linux
  /// that initialiser, for a standard-library element type such as `Bool` or `Int32`, looks its
  /// storage class up at run time, about 400 instructions for each array a parse makes.
  @inline(__always)
  init(filledWith value: Element, count: Int) {
    self.init()
    reserveCapacity(count)
    append(contentsOf: repeatElement(value, count: count))
  }
}
