/// A type of value the person can fill into an action: `String`, `Int`, `Double`, `Bool`, and an enum of string raw
/// values that declares it (`extension Column: ActionInputValue {}`).
///
/// An action with inputs is made from a closure that builds the intent from them
/// (``ActionDescriptor/init(enabled:prompt:_:)``). The closure is called with two distinct ``probes`` of each
/// input's type; where a value lands in the intent's encoding is the field the person fills in.
public protocol ActionInputValue: Encodable {
    /// What the placeholder takes, as the action's `inputs` member states it.
    static var inputType: ActionInputType { get }
    /// Two different values of the type (the same one twice only for a type of one value).
    static var probes: (Self, Self) { get }
}

extension String: ActionInputValue {
    /// Any string.
    public static var inputType: ActionInputType { .string }
    /// Two texts no person types (control characters around), so a field that is the text is found.
    public static var probes: (String, String) { ("\u{1}viewhost.input.a\u{1}", "\u{1}viewhost.input.b\u{1}") }
}

extension Int: ActionInputValue {
    /// A whole number.
    public static var inputType: ActionInputType { .integer }
    /// 1 and 2: only where they land in the intent's encoding is read.
    public static var probes: (Int, Int) { (1, 2) }
}

extension Double: ActionInputValue {
    /// A number.
    public static var inputType: ActionInputType { .number }
    /// 1.5 and 2.5: only where they land in the intent's encoding is read.
    public static var probes: (Double, Double) { (1.5, 2.5) }
}

extension Bool: ActionInputValue {
    /// `true` or `false`.
    public static var inputType: ActionInputType { .boolean }
    /// Both values: only where they land in the intent's encoding is read.
    public static var probes: (Bool, Bool) { (false, true) }
}

extension ActionInputValue where Self: CaseIterable & RawRepresentable, RawValue == String {
    /// One of the raw values of the enum's cases.
    public static var inputType: ActionInputType { .oneOf(allCases.map(\.rawValue)) }

    /// The first two cases (the first twice for an enum of one case).
    public static var probes: (Self, Self) {
        var cases = allCases.makeIterator()
        guard let first = cases.next() else {
            preconditionFailure("\(Self.self) has no cases, so no action can take one as an input")
        }
        return (first, cases.next() ?? first)
    }
}
