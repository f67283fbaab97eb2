/// What a value's `Encodable` writes, as a tree (``CapturingEncoder``): how an action learns its body from an
/// intent value, and a data-flow log line its fields from an event, without a JSON round trip.
package indirect enum CapturedValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([CapturedValue])
    /// An object's members in the order they were written (a member written twice keeps its first place).
    case object([(key: String, value: CapturedValue)])

    /// The members of an object; nil for any other value.
    package var members: [(key: String, value: CapturedValue)]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The member `key` of an object.
    package subscript(key: String) -> CapturedValue? {
        members?.first(where: { $0.key == key })?.value
    }
}
