/// The single-value container of ``JSONTreeEncoder``: the value becomes its node's scalar.
struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ slot: JSONNode.Slot) { encoder.node.set(slot) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.literal(try JSONNode.number(value, at: codingPath))) }
    mutating func encode(_ value: Float) throws { put(.literal(try JSONNode.number(value, at: codingPath))) }
    mutating func encode(_ value: Int) throws { put(.literal(String(value))) }
    mutating func encode(_ value: Int8) throws { put(.literal(String(value))) }
    mutating func encode(_ value: Int16) throws { put(.literal(String(value))) }
    mutating func encode(_ value: Int32) throws { put(.literal(String(value))) }
    mutating func encode(_ value: Int64) throws { put(.literal(String(value))) }
    mutating func encode(_ value: UInt) throws { put(.literal(String(value))) }
    mutating func encode(_ value: UInt8) throws { put(.literal(String(value))) }
    mutating func encode(_ value: UInt16) throws { put(.literal(String(value))) }
    mutating func encode(_ value: UInt32) throws { put(.literal(String(value))) }
    mutating func encode(_ value: UInt64) throws { put(.literal(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let slot = JSONTreeEncoder.inlineSlot(for: value) {
            put(slot)
        } else {
            try encoder.encodeValue(value)
        }
    }
}
