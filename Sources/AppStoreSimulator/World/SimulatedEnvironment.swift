/// Which App Store environment a simulated customer lives in.
public enum SimulatedEnvironment: String, CaseIterable, Hashable, Sendable {
  /// Real customers.
  case production = "Production"
  /// Test accounts.
  case sandbox = "Sandbox"
}
