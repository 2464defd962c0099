/// Schema version 14: the journal of `notifications replay`, which sends the notifications Apple
/// never delivered to the team's server.
///
/// - `notification_replays`: one row per attempt to send a lost notification to a destination
///   (the endpoint's URL, as the tool normalises it). A row is written `sent` (and committed)
///   just before the request leaves, and becomes `accepted` (a 2xx answer) or `failed` (another
///   status, kept in `http_status`, or no answer, its reason kept in `error`) when the answer is
///   in. A notification a destination accepted is never sent to it again. A latest attempt still
///   `sent` after the process ended is in doubt — the request may or may not have reached the
///   server — so a rerun does not send it again unless asked to: the team's server would get it
///   twice.
enum SchemaV14 {
  static let migration = SchemaMigration(
    version: 14, name: "notification replay journal",
    sql: """
      CREATE TABLE notification_replays (
        id INTEGER PRIMARY KEY,
        notification_uuid TEXT NOT NULL REFERENCES lost_notifications(notification_uuid),
        destination TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('sent', 'accepted', 'failed')),
        sent_ms INTEGER NOT NULL,
        answered_ms INTEGER,
        http_status INTEGER,
        error TEXT
      );
      CREATE INDEX notification_replays_by_notification
        ON notification_replays(notification_uuid, destination, id);
      """)
}
