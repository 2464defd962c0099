/// Lets a wrapper whose value type is only known as a generic parameter tell whether that type
/// is an `Optional`, and so whether "absent" means `nil` rather than "missing".
protocol OptionalValue {
  static var absent: Self { get }
}

extension Optional: OptionalValue {
  static var absent: Self { .none }
}
