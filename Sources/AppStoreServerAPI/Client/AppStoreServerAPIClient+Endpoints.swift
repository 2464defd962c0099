import Chronology
import JSON

// MARK: - Endpoints

extension AppStoreServerAPIClient {
  /// One page of a customer's transaction history (v2).
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - query: The filters; send the same ones with every page.
  ///   - revision: The previous page's revision, or `nil` for the first page.
  ///   - environment: The environment to call.
  /// - Returns: The page, every transaction verified.
  /// - Throws: ``AppStoreAPIError``.
  public func transactionHistory(
    _ transactionId: String, query: HistoryQuery = HistoryQuery(), revision: String? = nil,
    environment: AppStoreEnvironment
  ) async throws(AppStoreAPIError) -> HistoryResponse {
    let call = Call(
      endpoint: .transactionHistory, method: "GET",
      path: "/inApps/v2/history/\(PercentEncoding.encode(transactionId))",
      query: query.queryItems(revision: revision), environment: environment,
      requestedId: transactionId)
    return try await perform(call, decode: HistoryResponse.decode)
  }

  /// The pages of a customer's transaction history, requested one at a time as the caller
  /// iterates, so that each page's revision can be checkpointed before the next request.
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - query: The filters, sent with every page.
  ///   - revision: A stored revision to continue from, or `nil` for the whole history.
  ///   - environment: The environment to call.
  /// - Returns: The pages as an asynchronous sequence.
  public func historyPages(
    _ transactionId: String, query: HistoryQuery = HistoryQuery(),
    startingAfter revision: String? = nil, environment: AppStoreEnvironment
  ) -> HistoryPages {
    HistoryPages(
      client: self, transactionId: transactionId, query: query, revision: revision,
      environment: environment)
  }

  /// The whole transaction history, every page fetched and merged by transaction id.
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - query: The filters.
  ///   - revision: A stored revision to continue from, or `nil`.
  ///   - environment: The environment to call.
  /// - Returns: The merged transactions and the last revision.
  /// - Throws: ``AppStoreAPIError``.
  public func collectHistory(
    _ transactionId: String, query: HistoryQuery = HistoryQuery(),
    startingAfter revision: String? = nil, environment: AppStoreEnvironment
  ) async throws(AppStoreAPIError) -> CollectedHistory {
    var merger = TransactionHistoryMerger()
    var lastRevision = revision
    var pageCount = 0
    var iterator = historyPages(
      transactionId, query: query, startingAfter: revision, environment: environment
    ).makeAsyncIterator()
    while let page = try await iterator.next() {
      merger.add(page.transactions)
      lastRevision = page.revision ?? lastRevision
      pageCount += 1
    }
    return CollectedHistory(
      transactions: merger.transactions, revision: lastRevision, pageCount: pageCount)
  }

  /// The statuses of all of a customer's subscriptions.
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - statuses: Only subscriptions in these statuses (repeated `status`); empty for all.
  ///   - environment: The environment to call.
  /// - Returns: The statuses by group, every signed value verified.
  /// - Throws: ``AppStoreAPIError``.
  public func allSubscriptionStatuses(
    _ transactionId: String, statuses: [SubscriptionStatus] = [],
    environment: AppStoreEnvironment
  ) async throws(AppStoreAPIError) -> StatusResponse {
    let call = Call(
      endpoint: .subscriptionStatuses, method: "GET",
      path: "/inApps/v1/subscriptions/\(PercentEncoding.encode(transactionId))",
      query: statuses.map { ("status", String($0.rawValue)) }, environment: environment,
      requestedId: transactionId)
    return try await perform(call, decode: StatusResponse.decode)
  }

  /// One transaction.
  ///
  /// - Parameters:
  ///   - transactionId: The transaction's id.
  ///   - environment: The environment to call.
  /// - Returns: The verified transaction.
  /// - Throws: ``AppStoreAPIError``.
  public func transactionInfo(_ transactionId: String, environment: AppStoreEnvironment)
    async throws(AppStoreAPIError) -> Verified<JWSTransaction>
  {
    let call = Call(
      endpoint: .transactionInfo, method: "GET",
      path: "/inApps/v1/transactions/\(PercentEncoding.encode(transactionId))",
      environment: environment, requestedId: transactionId)
    return try await perform(call) { body, verifier throws(ResponseDecodingFailure) in
      let signed = try Self.signedMember("signedTransactionInfo", of: body)
      do throws(VerificationFailure) {
        return try verifier.verifyTransaction(signed)
      } catch {
        throw .verification(error)
      }
    }
  }

  /// One page of a customer's refunded and revoked transactions (v2).
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - revision: The previous page's revision, or `nil` for the first page.
  ///   - environment: The environment to call.
  /// - Returns: The page; follow `revision` while `hasMore`.
  /// - Throws: ``AppStoreAPIError``.
  public func refundHistory(
    _ transactionId: String, revision: String? = nil, environment: AppStoreEnvironment
  ) async throws(AppStoreAPIError) -> RefundHistoryResponse {
    let call = Call(
      endpoint: .refundHistory, method: "GET",
      path: "/inApps/v2/refund/lookup/\(PercentEncoding.encode(transactionId))",
      query: revision.map { [("revision", $0)] } ?? [], environment: environment,
      requestedId: transactionId)
    return try await perform(call, decode: RefundHistoryResponse.decode)
  }

  /// The transactions of an order, from the order id on a customer's receipt email.
  ///
  /// - Parameters:
  ///   - orderId: The order id.
  ///   - environment: The environment to call (Apple documents production only).
  /// - Returns: Whether the order is valid, and its verified transactions.
  /// - Throws: ``AppStoreAPIError``.
  public func lookUpOrderId(_ orderId: String, environment: AppStoreEnvironment = .production)
    async throws(AppStoreAPIError) -> OrderLookupResponse
  {
    let call = Call(
      endpoint: .orderLookup, method: "GET",
      path: "/inApps/v1/lookup/\(PercentEncoding.encode(orderId))", environment: environment,
      requestedId: orderId)
    return try await perform(call, decode: OrderLookupResponse.decode)
  }

  /// The customer's app transaction.
  ///
  /// - Parameters:
  ///   - transactionId: Any transaction id of the customer.
  ///   - environment: The environment to call.
  /// - Returns: The verified app transaction, or `nil` when the customer has none (4040019).
  /// - Throws: ``AppStoreAPIError``.
  public func appTransactionInfo(_ transactionId: String, environment: AppStoreEnvironment)
    async throws(AppStoreAPIError) -> Verified<AppTransaction>?
  {
    let call = Call(
      endpoint: .appTransactionInfo, method: "GET",
      path: "/inApps/v1/transactions/appTransactions/\(PercentEncoding.encode(transactionId))",
      environment: environment, requestedId: transactionId)
    do throws(AppStoreAPIError) {
      return try await perform(call) { body, verifier throws(ResponseDecodingFailure) in
        let signed = try Self.signedMember("signedAppTransactionInfo", of: body)
        do throws(VerificationFailure) {
          return try verifier.verifyAppTransaction(signed)
        } catch {
          throw .verification(error)
        }
      }
    } catch {
      if error.errorCode == .appTransactionDoesNotExist { return nil }
      throw error
    }
  }

  /// One page of the notification history.
  ///
  /// - Parameters:
  ///   - request: The span and filters.
  ///   - paginationToken: The previous page's token, or `nil` for the first page.
  ///   - environment: The environment to call.
  /// - Returns: The page, every notification verified.
  /// - Throws: ``AppStoreAPIError``.
  public func notificationHistory(
    _ request: NotificationHistoryRequest, paginationToken: String? = nil,
    environment: AppStoreEnvironment
  ) async throws(AppStoreAPIError) -> NotificationHistoryResponse {
    let call = Call(
      endpoint: .notificationHistory, method: "POST", path: "/inApps/v1/notifications/history",
      query: paginationToken.map { [("paginationToken", $0)] } ?? [],
      body: request.jsonBytes(), environment: environment, requestedId: request.transactionId)
    return try await perform(call, decode: NotificationHistoryResponse.decode)
  }

  /// Asks the App Store to send a `TEST` notification to the environment's configured
  /// notification URL.
  ///
  /// - Parameter environment: The environment: Apple sends to that environment's URL.
  /// - Returns: The `testNotificationToken` to ask its status with.
  /// - Throws: ``AppStoreAPIError``; `4040007` when no URL is configured for the environment.
  public func requestTestNotification(environment: AppStoreEnvironment)
    async throws(AppStoreAPIError) -> String
  {
    let call = Call(
      endpoint: .requestTestNotification, method: "POST", path: "/inApps/v1/notifications/test",
      environment: environment, requestedId: nil)
    return try await perform(call) { body, _ throws(ResponseDecodingFailure) in
      try Self.signedMember("testNotificationToken", of: body)
    }
  }

  /// What became of a test notification: the notification Apple sent, verified, and its
  /// delivery attempts.
  ///
  /// - Parameters:
  ///   - token: The `testNotificationToken` from ``requestTestNotification(environment:)``.
  ///   - environment: The environment the test was requested in.
  /// - Returns: The status.
  /// - Throws: ``AppStoreAPIError``; `4040008` for a token Apple does not know.
  public func testNotificationStatus(_ token: String, environment: AppStoreEnvironment)
    async throws(AppStoreAPIError) -> TestNotificationStatus
  {
    let call = Call(
      endpoint: .testNotificationStatus, method: "GET",
      path: "/inApps/v1/notifications/test/\(PercentEncoding.encode(token))",
      environment: environment, requestedId: token)
    return try await perform(call) { body, verifier throws(ResponseDecodingFailure) in
      var signed: String?
      var attempts: [SendAttempt] = []
      try ResponseDecodingFailure.reading(body) { reader throws(JSONError) in
        try reader.beginObject()
        while let key = try reader.nextKey() {
          switch key {
          case "signedPayload": signed = try reader.readOptionalString()
          case "sendAttempts":
            attempts =
              try reader.readOptionalArray { reader throws(JSONError) in
                try SendAttempt.read(from: &reader)
              } ?? []
          default: try reader.skipValue()
          }
        }
      }
      do throws(VerificationFailure) {
        return TestNotificationStatus(
          notification: try signed.map { signed throws(VerificationFailure) in
            try verifier.verifyNotification(signed)
          }, sendAttempts: attempts)
      } catch {
        throw .verification(error)
      }
    }
  }

  /// Sets the app account token (a UUID) of a purchase: a write, for callers that opt in.
  ///
  /// - Parameters:
  ///   - appAccountToken: The UUID, as text.
  ///   - originalTransactionId: The purchase's original transaction id.
  ///   - environment: The environment to call.
  /// - Throws: ``AppStoreAPIError``, such as 4000183 (not a UUID), 4000185 (family-shared) or
  ///   4000187 (not an original transaction id).
  public func setAppAccountToken(
    _ appAccountToken: String, forOriginalTransactionId originalTransactionId: String,
    environment: AppStoreEnvironment
  ) async throws(AppStoreAPIError) {
    var body = JSONWriter()
    body.beginObject()
    body.field("appAccountToken", appAccountToken)
    body.endObject()
    let call = Call(
      endpoint: .setAppAccountToken, method: "PUT",
      path: "/inApps/v1/transactions/\(PercentEncoding.encode(originalTransactionId))"
        + "/appAccountToken",
      body: body.bytes, environment: environment, requestedId: originalTransactionId)
    try await perform(call) { _, _ throws(ResponseDecodingFailure) in () }
  }

  // MARK: - Bodies with one signed value

  static func signedMember(_ name: StaticString, of body: [UInt8])
    throws(ResponseDecodingFailure) -> String
  {
    var signed: String?
    try ResponseDecodingFailure.reading(body) { reader throws(JSONError) in
      try reader.beginObject()
      while let key = try reader.nextKey() {
        if key == name { signed = try reader.readOptionalString() } else { try reader.skipValue() }
      }
    }
    guard let signed else { throw .shape("the answer has no \(name)") }
    return signed
  }
}
