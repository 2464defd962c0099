/// SplitMix64: a small seeded generator, so that a failure names a case that runs again. Shared
/// by the CSV tests and the team-table fuzz target (Scripts/fuzz compiles this file into it).
public struct SplitMix {
  private var state: UInt64

  /// A generator; the same seed gives the same numbers.
  public init(seed: UInt64) { state = seed }

  /// A number in `0..<bound`, or 0 when `bound` is not positive.
  public mutating func next(below bound: Int) -> Int {
    guard bound > 0 else { return 0 }
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
