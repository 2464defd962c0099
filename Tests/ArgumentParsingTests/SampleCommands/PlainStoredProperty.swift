import ArgumentParsing

/// Has a stored property without an argument wrapper, which the decoder cannot fill.
struct PlainStoredProperty: ParsableCommand {
  @Flag var verbose = false
  var attempts = 0
}
