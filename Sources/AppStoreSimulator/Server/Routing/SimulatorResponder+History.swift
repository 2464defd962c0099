import AppStoreServerAPI
import CryptoSupport
import HTTPServer
import JSON

extension SimulatorResponder {
  /// `GET /inApps/v2/history/{anyTransactionId}`: every transaction of the customer (consumables
  /// included), filtered, ordered by last-modified date (ties by transaction id), 20 a page.
  ///
  /// The revision holds the position of the page's last transaction, so the next page starts
  /// after it, and the revision of an ascending walk's last page, sent later, returns only the
  /// transactions modified since.
  ///
  /// The deprecated v1 (`GET /inApps/v1/history/{anyTransactionId}`) takes the same parameters and
  /// answers in the same shape, but leaves out consumables the app has finished unless they are
  /// refunded or revoked. The world's apps finish every consumable they deliver, so v1 lists a
  /// consumable only once it is revoked. A revision of one version does not continue the other.
  func history(
    _ id: String, _ request: ServerRequest, in environment: SimulatedEnvironment,
    version: HistoryVersion = .v2
  ) throws(CryptoError) -> Answer {
    let snapshot: CustomerSnapshot
    let filter: HistoryFilter
    switch resolve(id, in: environment, parameters: { HistoryFilter.parse(request.queryItems) }) {
    case .failure(let error): return .error(error)
    case .success(let resolved): (snapshot, filter) = resolved
    }
    let now = state.now
    let scope = snapshot.customer.appTransactionId
    let query = version == .v2 ? filter.fingerprint : "v1:" + filter.fingerprint
    var start: PageCursor.Position?
    if let revision = filter.revision {
      guard let cursor = PageCursor.decode(revision), cursor.scope == scope, cursor.query == query
      else { return .error(.invalidRevision) }
      start = cursor.position
    }
    var ordered = snapshot.customer.transactions.filter {
      $0.purchaseDate <= now && filter.matches($0, at: now)
        && (version == .v2 || $0.kind != .consumable || $0.revocation(at: now) != nil)
    }.map {
      (
        position: PageCursor.Position(
          key: snapshot.lastModified($0, now: now).millisecondsSince1970, id: $0.transactionId),
        transaction: $0
      )
    }.sorted { $0.position < $1.position }
    if filter.isDescending { ordered.reverse() }
    if let start {
      ordered.removeAll { filter.isDescending ? $0.position >= start : $0.position <= start }
    }
    let page = ordered.prefix(pageSize)
    let revision = PageCursor(
      scope: scope, query: query, position: page.last?.position ?? start
    ).encoded()
    let factory = factory(for: environment)
    var transactions: [Verified<JWSTransaction>] = []
    for entry in page {
      transactions.append(
        try signed.transaction(entry.transaction, of: snapshot, factory: factory, now: now))
    }
    let response = HistoryResponse(
      revision: revision, hasMore: ordered.count > pageSize, bundleId: state.bundleId,
      appAppleId: state.appAppleId, environment: factory.environment, transactions: transactions)
    let omitsEmpty = transactions.isEmpty && behaviour.emptyAnswers == .omittedMembers
    return .json { writer in
      guard omitsEmpty else { return response.write(to: &writer) }
      writer.beginObject()
      writer.field("revision", revision)
      writer.field("hasMore", false)
      writer.field("bundleId", state.bundleId)
      writer.field("appAppleId", state.appAppleId)
      writer.field("environment", factory.environment.rawValue)
      writer.endObject()
    }
  }

  /// `GET /inApps/v2/refund/lookup/{anyTransactionId}`: the customer's refunded transactions
  /// (full and prorated refunds; removal from Family Sharing is not a refund), by revocation
  /// date, 20 a page.
  func refundHistory(_ id: String, _ request: ServerRequest, in environment: SimulatedEnvironment)
    throws(CryptoError) -> Answer
  {
    let snapshot: CustomerSnapshot
    let revision: String?
    let parameters = { () -> Result<String?, APIErrorAnswer> in
      let revisions = request.queryValues(named: "revision")
      return revisions.count <= 1 ? .success(revisions.first) : .failure(.invalidRevision)
    }
    switch resolve(id, in: environment, parameters: parameters) {
    case .failure(let error): return .error(error)
    case .success(let resolved): (snapshot, revision) = resolved
    }
    let now = state.now
    let scope = snapshot.customer.appTransactionId
    let query = "refund-history"
    var start: PageCursor.Position?
    if let revision {
      guard let cursor = PageCursor.decode(revision), cursor.scope == scope, cursor.query == query
      else { return .error(.invalidRevision) }
      start = cursor.position
    }
    var refunds = snapshot.customer.transactions.compactMap { transaction in
      transaction.revocation(at: now).flatMap { revocation in
        revocation.kind == .familyRevoke
          ? nil
          : (
            position: PageCursor.Position(
              key: revocation.date.millisecondsSince1970, id: transaction.transactionId),
            transaction: transaction
          )
      }
    }.sorted { $0.position < $1.position }
    if let start { refunds.removeAll { $0.position <= start } }
    let page = refunds.prefix(pageSize)
    let factory = factory(for: environment)
    var transactions: [Verified<JWSTransaction>] = []
    for entry in page {
      transactions.append(
        try signed.transaction(entry.transaction, of: snapshot, factory: factory, now: now))
    }
    let response = RefundHistoryResponse(
      revision: PageCursor(scope: scope, query: query, position: page.last?.position ?? start)
        .encoded(),
      hasMore: refunds.count > pageSize, transactions: transactions)
    let omitsEmpty = transactions.isEmpty && behaviour.emptyAnswers == .omittedMembers
    return .json { writer in
      guard omitsEmpty else { return response.write(to: &writer) }
      writer.beginObject()
      writer.field("revision", response.revision)
      writer.field("hasMore", false)
      writer.endObject()
    }
  }
}
