extension WorldGenerator {
  /// Generates the world ``generate(accounts:seed:)`` makes, one part at a time: each part is
  /// handed to `body` as soon as it is made and dropped after, so memory holds one part, never
  /// the whole world. Joined in order (customers renumbered from each part's
  /// ``World/identifierBase``), the parts are that world.
  ///
  /// - Parameters:
  ///   - count: how many team accounts.
  ///   - seed: the seed.
  ///   - partSize: about how many accounts each part holds (a part ends only between draws of
  ///     accounts that belong together, so it may hold a few more).
  ///   - body: called with each part, in order.
  /// - Throws: what `body` throws; generation stops there.
  public func generate(
    accounts count: Int, seed: UInt64, inPartsOf partSize: Int,
    _ body: (World) throws -> Void
  ) rethrows {
    var part = self
    while part.configuration.numbering.firstAccount < count {
      let world = part.generatePart(seed: seed, total: count, partSize: max(1, partSize))
      try body(world)
      part.configuration.numbering.firstAccount += world.accounts.count
      part.configuration.numbering.firstCustomer += world.customers.count
    }
  }
}
