/// The unkeyed container of ``JSONTreeEncoder``: elements go into its node's array, scalars inline.
struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.count }

    private func put(_ slot: JSONNode.Slot) {
        encoder.node.append(element: slot)
    }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws {
        put(.literal(try JSONNode.number(value, at: codingPath + [JSONIndexKey(count)])))
    }
    mutating func encode(_ value: Float) throws {
        put(.literal(try JSONNode.number(value, at: codingPath + [JSONIndexKey(count)])))
    }
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
        put(try encoder.slot(for: value, key: JSONIndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = encoder.child(JSONIndexKey(count))
        put(.node(child.node))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = encoder.child(JSONIndexKey(count))
        put(.node(child.node))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(JSONIndexKey(count))
        put(.node(child.node))
        return child
    }
}
