/// The single-value container of ``JSONTreeEncoder``: the value becomes its node's scalar (a scalar written as
/// ``JSONSlotContainer`` writes it).
struct JSONSingleValueContainer: SingleValueEncodingContainer, JSONSlotContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    /// The value's number is refused at the value's own path.
    var numberPath: [any CodingKey] { codingPath }

    func put(_ slot: JSONNode.Slot) { encoder.node.set(slot) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let slot = JSONTreeEncoder.inlineSlot(for: value) {
            put(slot)
        } else {
            try encoder.encodeValue(value)
        }
    }
}
