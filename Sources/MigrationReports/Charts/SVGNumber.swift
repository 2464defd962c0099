import Terminal

/// Coordinates in SVG: one decimal, without a trailing `.0`, so that output is stable and
/// short.
enum SVGNumber {
  static func format(_ value: Double) -> String {
    let text = NumberFormatting.decimal(value, fractionDigits: 1)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}
