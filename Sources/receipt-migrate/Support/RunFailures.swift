import AppStoreServerAPI
import LegacyReceipts
import MigrationPipeline
import MigrationReports
import MigrationStore

/// Maps what the pipeline throws to the tool's exit codes: problems the user can fix in their
/// configuration or inputs exit 3 with the library's message; anything else stays an internal
/// error (70).
enum RunFailures {
  /// Runs `body`, translating configuration-like errors into ``ToolFailure/configuration(_:)``.
  static func translating<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as ToolFailure {
      throw error
    } catch let error as AppStoreAPIError {
      if case .unauthorized = error.kind {
        throw ToolFailure.configuration(
          "the App Store refused the credentials (401): check ASC_ISSUER_ID, ASC_KEY_ID, "
            + "ASC_PRIVATE_KEY_PATH and APP_BUNDLE_ID — \(error)")
      }
      if error.errorCode == .invalidAppIdentifier {
        throw ToolFailure.configuration("the App Store does not know this app: \(error)")
      }
      throw error
    } catch let error as StoreProvenance.Mismatch {
      throw ToolFailure.configuration(error.description)
    } catch let error as RunRecipe.Failure {
      throw ToolFailure.configuration(error.description)
    } catch let error as CurrentEntitlementsReader.Failure {
      throw ToolFailure.configuration(error.description)
    } catch let error as ProductCatalogError {
      throw ToolFailure.configuration("the product catalogue is invalid: \(error)")
    } catch let error as ReportError {
      throw ToolFailure.configuration("the report cannot be written: \(error)")
    } catch let error as AccountTokenFileReader.Failure {
      throw ToolFailure.configuration(error.description)
    } catch let error as LinkFailure {
      throw ToolFailure.configuration(error.description)
    } catch let error as SchemaMigrationError {
      throw ToolFailure.configuration("\(error)")
    }
  }

  /// Ends a command with the exit status a recorded run asks for, after its summary was
  /// printed: 1 for crossed thresholds, 4 for unresolved accounts or unusable inputs.
  static func finish(_ run: RecordedRun) throws {
    switch run.exitStatus {
    case 1:
      throw ToolFailure.discrepancies(
        "--fail-on \(run.summary.failOn?.expression ?? "") was crossed.")
    case 4:
      var reasons: [String] = []
      if run.unresolvedAccounts > 0 {
        reasons.append("\(run.unresolvedAccounts) account(s) unresolved")
      }
      if run.summary.inputs.recordsQuarantined > 0 {
        reasons.append("\(run.summary.inputs.recordsQuarantined) legacy record(s) quarantined")
      }
      if !run.rejectedTableRows.isEmpty {
        reasons.append("\(run.rejectedTableRows.count) entitlement table row(s) rejected")
      }
      if !run.quarantinedTokenRows.isEmpty {
        reasons.append("\(run.quarantinedTokenRows.count) token mapping row(s) quarantined")
      }
      if run.staleAccounts > 0 {
        reasons.append(
          "\(run.staleAccounts) account(s) stale_app_store_data (their customers are asked first "
            + "on the next run)")
      }
      for feed in run.feedsNeedingAttention {
        reasons.append(
          "the \(feed.environment) change feed is \(feed.state.rawValue)"
            + (feed.evidence.first.map { " (\($0))" } ?? "")
            + (run.summary.dataAge.map {
              "; App Store data is read as of the instant it holds through, the oldest "
                + ($0.oldest?.iso8601 ?? "unrecorded")
            } ?? ""))
      }
      throw ToolFailure.incomplete(reasons.joined(separator: ", ") + "; see the report.")
    default:
      return
    }
  }
}
