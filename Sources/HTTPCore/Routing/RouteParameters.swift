/// The values a route pattern captured, percent-decoded: `:id` in `/v1/sessions/:id` gives `parameters["id"]`.
public struct RouteParameters: Sendable, Equatable {
    private var values: [(name: String, value: String)] = []

    /// Creates an empty set.
    public init() {}

    /// The value captured for `name`, or nil.
    public subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// Whether nothing was captured.
    public var isEmpty: Bool { values.isEmpty }

    /// Adds the value captured for `name` (the router, as a pattern matches).
    package mutating func append(name: String, value: String) {
        values.append((name, value))
    }

    /// Parameters are equal when they hold the same names and values in the same order.
    public static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool {
        lhs.values.elementsEqual(rhs.values) { $0.name == $1.name && $0.value == $1.value }
    }
}
