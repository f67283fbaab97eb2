import Foundation

/// The `Encoder` handed to `encode(to:)`: every container it gives out writes into its one node.
struct JSONTreeEncoder: JSONTextEncoder {
    let node: JSONNode
    let userInfoStorage: [CodingUserInfoKey: any Sendable]

    init(node: JSONNode, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.node = node
        self.userInfoStorage = userInfo
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        node.keyType = ObjectIdentifier(type)
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return JSONUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(encoder: self)
    }

    func encodeJSONText(_ text: [UInt8]) {
        node.content = .scalar(.text(text))
    }

    /// Encodes `value` into this encoder's node through its `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        // JSONEncoder's default data strategy: base64 text. The cast holds, `T` being `Data` (compared first, as it
        // costs less than a cast that fails); were it not to, the value would encode itself, never trap.
        if T.self == Data.self, let data = value as? Data {
            node.content = .scalar(.string(data.base64EncodedString()))
            return
        }
        guard !SortedJSONEncoder.isSpecialCased(T.self) else {
            throw SortedJSONEncoder.Unsupported(
                description: "\(T.self) at \(codingPath.map(\.stringValue)) needs JSONEncoder's own strategy")
        }
        try value.encode(to: self)
    }

    /// The slot for `value`: inline for the common scalars, a child node for the rest.
    func slot<T: Encodable>(for value: T, key: any CodingKey) throws -> JSONNode.Slot {
        if let slot = Self.inlineSlot(for: value) { return slot }
        let child = JSONTreeEncoder(node: JSONNode(parent: node, key: key), userInfo: userInfoStorage)
        try child.encodeValue(value)
        if case .scalar(let slot) = child.node.content { return slot }
        return .node(child.node)
    }

    /// The slot of a String, Int or Bool reached through a generic `encode` (most members of a view model), without
    /// the round trip through its `encode(to:)`; nil for anything else. The type is compared, not cast: a cast that
    /// fails (every enum, struct and array member) costs a walk of the runtime's conformance tables.
    static func inlineSlot<T: Encodable>(for value: T) -> JSONNode.Slot? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .literal(String(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return .literal(unsafeBitCast(value, to: Bool.self) ? "true" : "false") }
        return nil
    }

    func child(_ key: any CodingKey) -> JSONTreeEncoder {
        JSONTreeEncoder(node: JSONNode(parent: node, key: key), userInfo: userInfoStorage)
    }
}
