/// The unkeyed container of ``JSONTreeEncoder``: elements go into its node's array, scalars inline (written as
/// ``JSONSlotContainer`` writes them).
struct JSONUnkeyedContainer: UnkeyedEncodingContainer, JSONSlotContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.count }

    /// An element's number is refused at the element's path.
    var numberPath: [any CodingKey] { codingPath + [JSONIndexKey(count)] }

    func put(_ slot: JSONNode.Slot) {
        encoder.node.append(element: slot)
    }

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
