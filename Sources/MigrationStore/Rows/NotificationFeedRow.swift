/// How far a store has read the notification history of one environment.
public struct NotificationFeedRow: Hashable, Sendable {
  /// `Production` or `Sandbox`.
  public var environment: String
  /// Every notification sent before this instant (Unix ms) has been read and every customer it
  /// named queued for a refresh.
  public var pagedThroughMilliseconds: Int64
  /// The App Store data of this environment is current through this instant (Unix ms): every
  /// notification before it has been read and nothing is left due.
  public var watermarkMilliseconds: Int64
  /// The window being read, when a read is under way: its start and end (Unix ms), the
  /// pagination token of the next page, and how many pages were read.
  public var window: Window?

  /// A window of the notification history being read, page by page.
  public struct Window: Hashable, Sendable {
    /// The request's `startDate` (Unix ms).
    public var startMilliseconds: Int64
    /// The request's `endDate` (Unix ms).
    public var endMilliseconds: Int64
    /// The token of the next page; `nil` before the first page.
    public var paginationToken: String?
    /// Pages read so far.
    public var pages: Int

    /// Creates a window.
    public init(
      startMilliseconds: Int64, endMilliseconds: Int64, paginationToken: String?, pages: Int
    ) {
      self.startMilliseconds = startMilliseconds
      self.endMilliseconds = endMilliseconds
      self.paginationToken = paginationToken
      self.pages = pages
    }
  }

  /// Creates a row.
  public init(
    environment: String, pagedThroughMilliseconds: Int64, watermarkMilliseconds: Int64,
    window: Window?
  ) {
    self.environment = environment
    self.pagedThroughMilliseconds = pagedThroughMilliseconds
    self.watermarkMilliseconds = watermarkMilliseconds
    self.window = window
  }
}
