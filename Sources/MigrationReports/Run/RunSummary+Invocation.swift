import JSON

extension RunSummary {
  /// Writes how the run was invoked — `command`, `command_line`, `exit_code` and `used_inputs` —
  /// as fields of the object being written.
  ///
  /// The stored run summary and `run.json` name these fields the same way, so one piece writes
  /// them for both and they cannot drift apart.
  public func writeInvocation(into writer: inout JSONWriter) {
    writer.field("command", command)
    writer.key("command_line")
    writer.beginArray()
    for argument in commandLine { writer.value(argument) }
    writer.endArray()
    writer.field("exit_code", exitCode.map(Int.init))
    writer.key("used_inputs")
    writer.beginArray()
    for input in usedInputs { input.write(into: &writer) }
    writer.endArray()
  }
}
