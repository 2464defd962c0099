extension ArgumentDefinition {
  /// The definitions of every argument property of `type`, in declaration order.
  ///
  /// Builds an instance with `init()`, whose wrappers hold definitions rather than values, and
  /// reads its properties through `Mirror`; a wrapped property's storage is labelled with the
  /// property name after an underscore.
  static func definitions(
    of type: any ParsableArguments.Type,
    under prefix: InputKey = InputKey(path: [])
  ) -> [ArgumentDefinition] {
    Mirror(reflecting: type.init()).children.flatMap { child -> [ArgumentDefinition] in
      guard let label = child.label, let provider = child.value as? any ArgumentDefinitionProvider
      else { return [] }
      let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
      return provider.argumentDefinitions(for: prefix.appending(name))
    }
  }
}
