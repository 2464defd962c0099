import Entitlements

// MARK: - Redacting a comparison

extension Pseudonymizer {
  /// The comparison with every account id and customer key replaced by its pseudonym, in the
  /// fields that hold them and in the free text that may quote them.
  ///
  /// Free text (explanations, findings, reasons, errors, record sources such as
  /// `responses/42.json`) is scrubbed of the ids this account's evidence names: the account
  /// itself, the other accounts sharing its customers, and the customer keys. Other text is
  /// left as the comparison wrote it.
  ///
  /// - Parameter comparison: the comparison as computed.
  /// - Returns: the comparison as a redacted report shows it.
  func redacting(_ comparison: AccountComparison) -> AccountComparison {
    // A list, not a `[String: String]`: two account ids equal only up to Unicode
    // normalization are two accounts, each with its own pseudonym.
    var replacements = [
      (id: comparison.accountId, replacement: pseudonym(forAccount: comparison.accountId))
    ]
    for customer in comparison.evidence.customers {
      replacements.append((customer.key, pseudonym(forCustomer: customer.key)))
      for other in customer.otherAccounts {
        replacements.append((other, pseudonym(forAccount: other)))
      }
    }
    let scrubber = TextScrubber(replacements: replacements)

    var redacted = comparison
    redacted.accountId = pseudonym(forAccount: comparison.accountId)
    redacted.explanation = scrubber.scrub(comparison.explanation)
    redacted.secondaryFindings = comparison.secondaryFindings.map(scrubber.scrub)
    redacted.keys = comparison.keys.map { key in
      var key = key
      key.explanation = scrubber.scrub(key.explanation)
      key.old = key.old.map(scrubber.scrub)
      key.new = key.new.map(scrubber.scrub)
      key.oldAtCapture = key.oldAtCapture.map(scrubber.scrub)
      key.newAtCapture = key.newAtCapture.map(scrubber.scrub)
      key.table = key.table.map(scrubber.scrub)
      return key
    }
    redacted.evidence.legacyRecords = comparison.evidence.legacyRecords.map { record in
      var record = record
      record.source = scrubber.scrub(record.source)
      record.setAside = record.setAside.map { field in
        var field = field
        field.detail = scrubber.scrub(field.detail)
        field.excerpt = scrubber.scrub(field.excerpt)
        return field
      }
      return record
    }
    redacted.evidence.seedIds = comparison.evidence.seedIds.map { seed in
      var seed = seed
      // An app transaction id is a seed and the key of the customer it names.
      seed.id = scrubber.scrub(seed.id)
      seed.source = scrubber.scrub(seed.source)
      seed.lastError = seed.lastError.map(scrubber.scrub)
      return seed
    }
    redacted.evidence.customers = comparison.evidence.customers.map { customer in
      var customer = customer
      customer.key = pseudonym(forCustomer: customer.key)
      // Sorted again: the order of the real ids would hint at them.
      customer.otherAccounts = customer.otherAccounts.map { pseudonym(forAccount: $0) }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      return customer
    }
    // A token stands for an account (a derived one is computed from the account id), so a
    // redacted report keeps only whether there was one.
    redacted.tokenAudit = comparison.tokenAudit.map { audit in
      var audit = audit
      audit.accountId = pseudonym(forAccount: audit.accountId)
      audit.expectedToken = audit.expectedToken.map { _ in Self.redactedToken }
      audit.purchases = audit.purchases.map { purchase in
        var purchase = purchase
        purchase.customerKey = pseudonym(forCustomer: purchase.customerKey)
        purchase.currentToken = purchase.currentToken.map { _ in Self.redactedToken }
        purchase.expectedToken = purchase.expectedToken.map { _ in Self.redactedToken }
        purchase.tokenOwner = purchase.tokenOwner.map { pseudonym(forAccount: $0) }
        return purchase
      }
      return audit
    }
    return redacted
  }

  /// What a redacted report shows in place of an `appAccountToken`.
  static let redactedToken = "redacted"
}

// MARK: - Redacting a run's context

extension Pseudonymizer {
  /// The changes and lost notifications with every account id and customer key replaced by its
  /// pseudonym, in pseudonym order (the order of the real ids would hint at them).
  ///
  /// - Parameter context: the context as computed.
  /// - Returns: the context as a redacted report shows it.
  func redacting(_ context: RunContext) -> RunContext {
    var redacted = RunContext(
      changes: context.changes.map { change in
        var change = change
        change.accountId = pseudonym(forAccount: change.accountId)
        return change
      }.sorted { $0.accountId.utf8.lexicographicallyPrecedes($1.accountId.utf8) },
      lostNotifications: context.lostNotifications.map(redacting),
      pendingNotifications: context.pendingNotifications.map(redacting))
    redacted.tableOnlyAccounts = context.tableOnlyAccounts.map { pseudonym(forAccount: $0) }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    // Run ids, dates and counts name no account.
    redacted.trend = context.trend
    redacted.unclaimedCustomers = context.unclaimedCustomers.map { customer in
      var customer = customer
      customer.customerKey = pseudonym(forCustomer: customer.customerKey)
      // A token derived from an account id (UUID version 5) would let a guessed id be checked.
      customer.appAccountToken = customer.appAccountToken.map { _ in "redacted" }
      return customer
    }
    return redacted
  }

  /// A failed delivery (lost or pending) with its customer key and accounts replaced by their
  /// pseudonyms, the accounts in pseudonym order. The signed payload is kept as Apple signed it:
  /// it is what a replay sends, and changing a byte would break its signature.
  ///
  /// - Parameter notification: the notification as stored.
  /// - Returns: the notification as a redacted report shows it.
  public func redacting(_ notification: LostNotification) -> LostNotification {
    var notification = notification
    notification.customerKey = notification.customerKey.map { pseudonym(forCustomer: $0) }
    notification.accounts = notification.accounts.map { pseudonym(forAccount: $0) }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    return notification
  }
}
