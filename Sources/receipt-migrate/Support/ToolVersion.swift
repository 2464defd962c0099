/// The tool's version, printed by `--version` and sent in the `User-Agent`.
enum ToolVersion {
  static let current = "0.1.0-dev"
}
