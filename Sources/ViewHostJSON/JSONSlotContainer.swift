/// A container of ``JSONTreeEncoder`` whose values each fill one slot (``JSONSingleValueContainer``: its node's
/// value; ``JSONUnkeyedContainer``: its array's next element): a scalar becomes the slot the same way in both, so it
/// is written once, here.
protocol JSONSlotContainer {
    /// Where a refused number is reported (read only when one is refused).
    var numberPath: [any CodingKey] { get }
    /// Puts `slot` where the container's next value goes.
    func put(_ slot: JSONNode.Slot)
}

extension JSONSlotContainer {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.literal(try JSONNode.number(value, at: numberPath))) }
    mutating func encode(_ value: Float) throws { put(.literal(try JSONNode.number(value, at: numberPath))) }
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
}
