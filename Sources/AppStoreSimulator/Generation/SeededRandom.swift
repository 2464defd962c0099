/// A small, fast, deterministic random source (SplitMix64): the same seed gives the same world
/// on every machine and Swift version, which `SystemRandomNumberGenerator` cannot promise.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a source.
  ///
  /// - Parameter seed: the seed.
  public init(seed: UInt64) {
    state = seed
  }

  /// A source for one sub-stream (a customer, an account), independent of how many numbers
  /// other streams drew — so adding a field to one customer does not reshuffle the others.
  ///
  /// - Parameters:
  ///   - seed: the world's seed.
  ///   - stream: the sub-stream's number.
  public init(seed: UInt64, stream: UInt64) {
    var mixer = SeededRandom(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
    state = mixer.next()
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in a range.
  ///
  /// - Parameter range: the range.
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }

  /// `true` with probability `probability`.
  ///
  /// - Parameter probability: between 0 and 1.
  public mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) / Double(1 << 53) < probability
  }

  /// A uniform value in [0, 1).
  public mutating func unit() -> Double {
    Double(next() >> 11) / Double(1 << 53)
  }

  /// Picks an element with probability proportional to its weight.
  ///
  /// - Parameter weighted: elements and their weights.
  /// - Returns: the chosen element.
  public mutating func pick<Element>(_ weighted: [(Element, Double)]) -> Element {
    let total = weighted.reduce(0) { $0 + $1.1 }
    var threshold = unit() * total
    for (element, weight) in weighted {
      if threshold < weight { return element }
      threshold -= weight
    }
    return weighted[weighted.count - 1].0
  }
}
