/// Work over many items with a bounded number in flight: the backfill's groups and the
/// refresh's due customers. Items start in order; after a failure no new item starts, the items
/// in flight finish, and the first error is rethrown.
///
/// Items in flight are never cancelled: cancelling a task inside `URLSession.data(for:)`
/// deadlocks FoundationNetworking on Linux, and an item stopped halfway would waste the request
/// it was waiting for. Each item's own checkpoints (``StopRequest``) end it quickly when the run
/// is being stopped.
enum ConcurrentWork {
  /// Runs `body` over `items` with at most `limit` at once, calling `afterEach` each time one
  /// finishes.
  ///
  /// - Parameters:
  ///   - items: the work, in the order it should start.
  ///   - limit: how many at once (at least one).
  ///   - afterEach: called after each item, for progress.
  ///   - body: the work for one item.
  /// - Throws: the first error `body` throws, once every item in flight has finished.
  static func forEach<Item: Sendable>(
    _ items: [Item], limit: Int, afterEach: @escaping @Sendable () async -> Void = {},
    body: @escaping @Sendable (Item) async throws -> Void
  ) async throws {
    // Children report their errors as values, so that the group never ends by throwing
    // (which would cancel the siblings still in flight).
    let failure = await withTaskGroup(of: (any Error)?.self) { group -> (any Error)? in
      var iterator = items.makeIterator()
      func start(_ item: Item) {
        group.addTask {
          do {
            try await body(item)
            return nil
          } catch {
            return error
          }
        }
      }
      for _ in 0..<max(1, limit) {
        guard let item = iterator.next() else { break }
        start(item)
      }
      var first: (any Error)?
      while let outcome = await group.next() {
        if let error = outcome {
          first = first ?? error
          continue
        }
        await afterEach()
        if first == nil, let item = iterator.next() { start(item) }
      }
      return first
    }
    if let failure { throw failure }
  }
}
