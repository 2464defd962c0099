import Synchronization

/// The live counters behind `HTTPServerStatistics`, updated from every connection thread.
///
/// Relaxed atomics: each counter only has to be exact by itself, and no other memory is published
/// through them.
final class StatisticsCounters: Sendable {
  let connectionsAccepted = Atomic<Int>(0)
  let connectionsClosedForCapacity = Atomic<Int>(0)
  let acceptFailures = Atomic<Int>(0)
  let requestsServed = Atomic<Int>(0)
  let requestsRejected = Atomic<Int>(0)
  let successfulResponses = Atomic<Int>(0)
  let redirectionResponses = Atomic<Int>(0)
  let clientErrorResponses = Atomic<Int>(0)
  let serverErrorResponses = Atomic<Int>(0)
  let faultsClosedWithoutResponse = Atomic<Int>(0)
  let faultsTruncatedBody = Atomic<Int>(0)
  let idleTimeouts = Atomic<Int>(0)
  let readTimeouts = Atomic<Int>(0)
  let writeTimeouts = Atomic<Int>(0)
  let bytesReceived = Atomic<Int>(0)
  let bytesSent = Atomic<Int>(0)

  /// Counts a final response by its status class.
  func recordResponse(_ status: HTTPStatus) {
    switch status.code {
    case 200..<300: successfulResponses.add(1, ordering: .relaxed)
    case 300..<400: redirectionResponses.add(1, ordering: .relaxed)
    case 400..<500: clientErrorResponses.add(1, ordering: .relaxed)
    default: serverErrorResponses.add(1, ordering: .relaxed)
    }
  }

  /// Reads every counter.
  func snapshot(connectionsOpen: Int) -> HTTPServerStatistics {
    var statistics = HTTPServerStatistics()
    statistics.connectionsAccepted = connectionsAccepted.load(ordering: .relaxed)
    statistics.connectionsOpen = connectionsOpen
    statistics.connectionsClosedForCapacity = connectionsClosedForCapacity.load(ordering: .relaxed)
    statistics.acceptFailures = acceptFailures.load(ordering: .relaxed)
    statistics.requestsServed = requestsServed.load(ordering: .relaxed)
    statistics.requestsRejected = requestsRejected.load(ordering: .relaxed)
    statistics.successfulResponses = successfulResponses.load(ordering: .relaxed)
    statistics.redirectionResponses = redirectionResponses.load(ordering: .relaxed)
    statistics.clientErrorResponses = clientErrorResponses.load(ordering: .relaxed)
    statistics.serverErrorResponses = serverErrorResponses.load(ordering: .relaxed)
    statistics.faultsClosedWithoutResponse = faultsClosedWithoutResponse.load(ordering: .relaxed)
    statistics.faultsTruncatedBody = faultsTruncatedBody.load(ordering: .relaxed)
    statistics.idleTimeouts = idleTimeouts.load(ordering: .relaxed)
    statistics.readTimeouts = readTimeouts.load(ordering: .relaxed)
    statistics.writeTimeouts = writeTimeouts.load(ordering: .relaxed)
    statistics.bytesReceived = bytesReceived.load(ordering: .relaxed)
    statistics.bytesSent = bytesSent.load(ordering: .relaxed)
    return statistics
  }
}
