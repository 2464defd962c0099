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
        // The run stopped at the first 401 a fresh token did not cure (the client sends
        // nothing more); Apple's 401 gives no reason, so every setting that can cause it is
        // named, in the order they are most often wrong.
        throw ToolFailure.configuration(
          "the App Store refused the credentials (HTTP 401, again with a freshly signed token; "
            + "\(error.endpoint) in \(error.environment.rawValue)), so the run stopped at once. "
            + "Check ASC_KEY_ID and ASC_ISSUER_ID (App Store Connect, Users and Access, "
            + "Integrations, In-App Purchase), that the private key (ASC_PRIVATE_KEY_PATH or "
            + "ASC_PRIVATE_KEY) is "
            + "the one of that key id, APP_BUNDLE_ID, and the system clock; in the "
            + "configuration file they are key_id, issuer_id, private_key_path (or "
            + "private_key) and bundle_id. "
            + "An app never released in production is refused by production too.")
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
    } catch let error as ReplayFailure {
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
      throw ToolFailure.incomplete(
        run.incompleteReasons.joined(separator: "; ") + "; see the report.")
    default:
      return
    }
  }
}
