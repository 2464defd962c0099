/// Work over many items with a bounded number in flight: the backfill's groups and the
/// refresh's due customers. Items start in order; a failure cancels the rest and is rethrown.
enum ConcurrentWork {
  /// Runs `body` over `items` with at most `limit` at once, calling `afterEach` each time one
  /// finishes.
  ///
  /// - Parameters:
  ///   - items: the work, in the order it should start.
  ///   - limit: how many at once (at least one).
  ///   - afterEach: called after each item, for progress.
  ///   - body: the work for one item.
  /// - Throws: the first error `body` throws.
  static func forEach<Item: Sendable>(
    _ items: [Item], limit: Int, afterEach: @escaping @Sendable () async -> Void = {},
    body: @escaping @Sendable (Item) async throws -> Void
  ) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      var iterator = items.makeIterator()
      for _ in 0..<max(1, limit) {
        guard let item = iterator.next() else { break }
        group.addTask { try await body(item) }
      }
      while try await group.next() != nil {
        await afterEach()
        if let item = iterator.next() { group.addTask { try await body(item) } }
      }
    }
  }
}
