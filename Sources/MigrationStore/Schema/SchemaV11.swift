/// Schema version 11: the run ledger and the store's recipe.
///
/// A nightly job needs to know more of each run than what it compared: which command made it,
/// with which command line, whether its report was delivered, and how it ended. And a store used
/// night after night needs to remember what it is run with, so that an ad-hoc command does not
/// silently drop the catalogue or the team table and change what the next night compares with.
///
/// - `runs.command`: the command that recorded the run (`migrate`, `audit`, `compare`); `NULL`
///   for runs recorded before this version.
/// - `runs.command_line`: the command line as a JSON array, with secrets scrubbed.
/// - `runs.recipe_key`: what the run's classifications depend on (the catalogue's content and
///   the team table it compared), so that "since the last run" compares runs of the same inputs.
/// - `runs.reported_ms`, `runs.report_directory`: when the run's report was committed, and
///   where.
/// - `runs.ended_ms`, `runs.exit_code`: when the command that made the run ended — after it
///   printed its headline and handed its alerts over — and with which exit code. A run is the
///   baseline of a later run, and the lost notifications it lists count as handed over, only
///   once it is both reported and ended: a run killed while writing its report or its alerts
///   is superseded by the next, which alerts again. Runs finished before this version are taken
///   as reported and ended when they finished (nothing else was recorded).
/// - `recipe_settings`: the store's recipe — each input and setting the job runs with (legacy
///   inputs, catalogue, team table, token mapping, `--fail-on`, budgets, alerts), with the run
///   or command that set it and when.
enum SchemaV11 {
  static let migration = SchemaMigration(
    version: 11, name: "run ledger and recipe",
    sql: """
      ALTER TABLE runs ADD COLUMN command TEXT;
      ALTER TABLE runs ADD COLUMN command_line TEXT;
      ALTER TABLE runs ADD COLUMN recipe_key TEXT;
      ALTER TABLE runs ADD COLUMN reported_ms INTEGER;
      ALTER TABLE runs ADD COLUMN report_directory TEXT;
      ALTER TABLE runs ADD COLUMN ended_ms INTEGER;
      ALTER TABLE runs ADD COLUMN exit_code INTEGER;
      UPDATE runs SET reported_ms = finished_ms, ended_ms = finished_ms
        WHERE finished_ms IS NOT NULL;
      CREATE INDEX runs_by_start ON runs(started_ms, id);

      CREATE TABLE recipe_settings (
        name TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL,
        set_by TEXT NOT NULL,
        set_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      """)
}
