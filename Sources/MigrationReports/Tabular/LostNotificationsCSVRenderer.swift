/// Renders `lost-notifications.csv`: every notification Apple never delivered to the team's
/// server that the run reports — what it said, about whom, how delivery failed — with the
/// signed payload, so the team can replay it.
struct LostNotificationsCSVRenderer {
  let content: ReportContent

  func render(into output: inout ReportOutput) {
    output.write(
      CSVField.line([
        "notification_uuid", "environment", "type", "subtype", "signed_at",
        "original_transaction_id", "customer", "accounts", "first_attempt", "last_attempt",
        "reason", "signed_payload",
      ]))
    for lost in content.context.lostNotifications {
      let fields = [
        lost.uuid, lost.environment, lost.type, lost.subtype ?? "", lost.signedDate?.iso8601 ?? "",
        lost.originalTransactionId ?? "", lost.customerKey ?? "",
        lost.accounts.joined(separator: " "), lost.firstAttempt?.iso8601 ?? "",
        lost.lastAttempt?.iso8601 ?? "", lost.reason ?? "", lost.signedPayload,
      ]
      output.write(CSVField.line(fields))
    }
  }
}
