import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The benchmark's second load generator: the same requests through Foundation's URLSession
/// (libcurl on Linux), the HTTP stack the API client uses, with one task per connection.
struct URLSessionLoad {
  let base: URL
  let authorization: String
  let connections: Int

  /// Runs the connections for `duration`, cycling through the targets' paths.
  func run(targets: [LoopbackLoadGenerator.Target], duration: Duration) async throws
    -> LoopbackLoadGenerator.Outcome
  {
    var work: [(label: String, url: URL)] = []
    for index in 0..<(targets.map(\.paths.count).max() ?? 0) {
      for target in targets where index < target.paths.count {
        guard let url = URL(string: base.absoluteString + target.paths[index]) else {
          throw LoopbackLoadGenerator.Failure(
            description: "\(target.paths[index]) does not make a URL")
        }
        work.append((target.label, url))
      }
    }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = connections
    configuration.timeoutIntervalForRequest = 30
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let began = ContinuousClock.now
    let end = began + duration
    let jobs = work
    let authorization = authorization
    let connections = connections
    var outcome = await withTaskGroup(of: LoopbackLoadGenerator.Outcome.self) { group in
      for index in 0..<connections {
        group.addTask {
          var local = LoopbackLoadGenerator.Outcome()
          var cursor = index * (jobs.count / connections)
          while ContinuousClock.now < end {
            let (label, url) = jobs[cursor % jobs.count]
            cursor += 1
            var request = URLRequest(url: url)
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let started = ContinuousClock.now
            do {
              let (body, response) = try await session.data(for: request)
              let elapsed = started.duration(to: .now)
              local.latencies[label, default: []].append(
                elapsed.components.seconds * 1_000_000_000
                  + elapsed.components.attoseconds / 1_000_000_000)
              let status = (response as? HTTPURLResponse)?.statusCode ?? 0
              local.statuses[status, default: 0] += 1
              local.bodyBytes[label, default: 0] += body.count
            } catch {
              // A failed request is counted, not fatal: the run measures what got through.
              local.failures += 1
            }
          }
          return local
        }
      }
      var merged = LoopbackLoadGenerator.Outcome()
      for await local in group {
        merged.latencies.merge(local.latencies, uniquingKeysWith: +)
        merged.statuses.merge(local.statuses, uniquingKeysWith: +)
        merged.bodyBytes.merge(local.bodyBytes, uniquingKeysWith: +)
        merged.failures += local.failures
      }
      return merged
    }
    outcome.elapsed = began.duration(to: .now)
    return outcome
  }
}
