/// Renders `account-tokens.csv`: every purchase a `receipt-migrate link` would change — its
/// token now, the token it would get, and why (association leaks first) — so the team can
/// review the writes before sending any. Only the header when the run did not audit tokens or
/// nothing would change.
struct AccountTokensCSVRenderer {
  let content: ReportContent

  func render(into output: inout ReportOutput) {
    output.write(
      CSVField.line([
        "account_id", "customer", "environment", "original_transaction_id", "product_id",
        "kind", "finding", "current_token", "new_token", "token_owner", "reason",
      ]))
    for (account, purchase) in content.tokens?.writes ?? [] {
      output.write(
        CSVField.line([
          account, purchase.customerKey, purchase.environment, purchase.originalTransactionId,
          purchase.productId ?? "", purchase.isSubscription ? "subscription" : "one_time",
          purchase.finding.rawValue, purchase.currentToken ?? "", purchase.expectedToken ?? "",
          purchase.tokenOwner ?? "", TokenAuditStatistics.reason(purchase),
        ]))
    }
  }
}
