/// A property wrapper that contributes argument definitions when its command is discovered.
protocol ArgumentDefinitionProvider {
  func argumentDefinitions(for key: InputKey) -> [ArgumentDefinition]
}
