/// How a Boolean flag's opposite is spelled, so that a default of `true` can be turned off.
public enum FlagInversion: Sendable {
  /// `--index` and `--no-index`.
  case prefixedNo
  /// `--enable-index` and `--disable-index`.
  case prefixedEnableDisable
}

extension FlagInversion {
  /// The names that set the flag and the names that clear it; one-letter names only set it.
  func names(inverting names: [ArgumentName]) -> (
    positive: [ArgumentName], negative: [ArgumentName]
  ) {
    var positive: [ArgumentName] = []
    var negative: [ArgumentName] = []
    for name in names {
      guard case .long(let long) = name else {
        positive.append(name)
        continue
      }
      switch self {
      case .prefixedNo:
        positive.append(name)
        negative.append(.long("no-\(long)"))
      case .prefixedEnableDisable:
        positive.append(.long("enable-\(long)"))
        negative.append(.long("disable-\(long)"))
      }
    }
    return (positive, negative)
  }
}
