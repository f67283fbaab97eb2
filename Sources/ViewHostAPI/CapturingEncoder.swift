/// An `Encoder` that keeps what a value writes as a ``CapturedValue`` tree, members in the order written. It is
/// Foundation-free (ViewHostAPI builds for iOS) and never fails by itself: whatever a value's `encode(to:)` throws
/// is passed on.
package struct CapturingEncoder: Encoder {
    /// Where one value is written: unset until the value writes, then a scalar, an object or an array.
    final class Node {
        enum Content {
            case unset
            case scalar(CapturedValue)
            case object([(key: String, node: Node)])
            case array([Node])
        }

        var content = Content.unset

        /// What was written; a value that wrote nothing is an empty object, as JSONEncoder writes it.
        var value: CapturedValue {
            switch content {
            case .unset: .object([])
            case .scalar(let value): value
            case .object(let members): .object(members.map { ($0.key, $0.node.value) })
            case .array(let items): .array(items.map(\.value))
            }
        }

        /// The child node for the member `key` (the existing one when `key` was written before).
        func member(_ key: String) -> Node {
            var members: [(key: String, node: Node)] = []
            if case .object(let existing) = content { members = existing }
            if let found = members.first(where: { $0.key == key }) { return found.node }
            let node = Node()
            members.append((key, node))
            content = .object(members)
            return node
        }

        /// A new child node at the end of an array.
        func appended() -> Node {
            var items: [Node] = []
            if case .array(let existing) = content { items = existing }
            let node = Node()
            items.append(node)
            content = .array(items)
            return node
        }
    }

    let node: Node
    package let codingPath: [any CodingKey]
    package let userInfo: [CodingUserInfoKey: Any] = [:]

    init(node: Node, codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    /// What `value` writes.
    package static func capture(_ value: some Encodable) throws -> CapturedValue {
        let node = Node()
        try value.encode(to: CapturingEncoder(node: node, codingPath: []))
        return node.value
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return Unkeyed(node: node, codingPath: codingPath)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node, codingPath: codingPath)
    }

    /// A key of an array's item, for coding paths.
    struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { intValue.map(String.init) ?? "" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws {
            node.member(key.stringValue).content = .scalar(.null)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try value.encode(to: CapturingEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            CapturingEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(
                keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            CapturingEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            CapturingEncoder(node: node.member("super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            CapturingEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        var count: Int {
            if case .array(let items) = node.content { items.count } else { 0 }
        }

        private func next() -> CapturingEncoder {
            let index = count
            return CapturingEncoder(node: node.appended(), codingPath: codingPath + [Index(index)])
        }

        mutating func encodeNil() throws {
            next().node.content = .scalar(.null)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try value.encode(to: next())
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            next().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            next().unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            next()
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        private func set(_ value: CapturedValue) {
            node.content = .scalar(value)
        }

        /// An integer of a type wider than `Int` may be (or unsigned): an integer when `Int` holds it, else the
        /// nearest number, as JSON would carry it.
        private func set(wide value: some BinaryInteger) {
            set(Int(exactly: value).map { .integer($0) } ?? .number(Double(value)))
        }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(.number(value)) }
        mutating func encode(_ value: Float) throws { set(.number(Double(value))) }
        mutating func encode(_ value: Int) throws { set(.integer(value)) }
        mutating func encode(_ value: Int8) throws { set(.integer(Int(value))) }
        mutating func encode(_ value: Int16) throws { set(.integer(Int(value))) }
        mutating func encode(_ value: Int32) throws { set(.integer(Int(value))) }
        mutating func encode(_ value: Int64) throws { set(wide: value) }
        mutating func encode(_ value: UInt) throws { set(wide: value) }
        mutating func encode(_ value: UInt8) throws { set(.integer(Int(value))) }
        mutating func encode(_ value: UInt16) throws { set(.integer(Int(value))) }
        mutating func encode(_ value: UInt32) throws { set(wide: value) }
        mutating func encode(_ value: UInt64) throws { set(wide: value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try value.encode(to: CapturingEncoder(node: node, codingPath: codingPath))
        }
    }
}
