/// The keyed container of ``JSONTreeEncoder``: members go into its node's object, scalars inline.
struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ slot: JSONNode.Slot, _ key: Key) {
        encoder.node.append(member: key.stringValue, slot)
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.literal(value ? "true" : "false"), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        put(.literal(try JSONNode.number(value, at: codingPath + [key])), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(.literal(try JSONNode.number(value, at: codingPath + [key])), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.literal(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.literal(String(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try encoder.slot(for: value, key: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(key)
        put(.node(child.node), key)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = encoder.child(key)
        put(.node(child.node), key)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue)
    }

    private func superEncoder(named name: String) -> any Encoder {
        let child = JSONTreeEncoder(
            node: JSONNode(parent: encoder.node.parent, key: encoder.node.key), userInfo: encoder.userInfoStorage)
        encoder.node.append(member: name, .node(child.node))
        return child
    }
}
