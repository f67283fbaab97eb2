import Foundation

/// Encodes `Encodable` values to compact JSON with object keys sorted by their UTF-8 bytes and `/` unescaped: the
/// bytes Foundation's `JSONEncoder` makes on Linux with `[.sortedKeys, .withoutEscapingSlashes]` (its sorted-key
/// order off Apple platforms is UTF-8 byte order; numbers and escapes are written as it writes them), in a
/// fraction of the time. Snapshots are encoded once per version, so this runs on every change a session makes.
///
/// It knows Swift's own scalar types. Foundation types whose encoding `JSONEncoder` special-cases (`Date`, `Data`,
/// `URL`, `Decimal`) are refused with ``Unsupported`` rather than guessed at, so a caller can fall back to
/// `JSONEncoder` for such a value; so are non-finite numbers, which `JSONEncoder` refuses too.
public struct SortedJSONEncoder {
    /// Why a value could not be encoded here.
    public struct Unsupported: Error, CustomStringConvertible {
        public let description: String
    }

    /// Values for `Encoder.userInfo` (such as a URL the value's encoding needs).
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// The JSON text of `value`.
    public func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = JSONNode(parent: nil, key: nil)
        try JSONTreeEncoder(node: root, userInfo: userInfo).encodeValue(value)
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        root.write(to: &output)
        return output
    }

    /// Whether JSONEncoder encodes values of `type` by a strategy of its own instead of their `encode(to:)`.
    static func isSpecialCased(_ type: Any.Type) -> Bool {
        type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
    }
}

/// One value of the tree being encoded; containers are filled in place as the value's `encode(to:)` runs.
/// Scalars sit inline in their container's slots, so only objects and arrays cost an allocation.
final class JSONNode {
    enum Slot {
        case null
        /// Text written as is: a number, `true`, `false`.
        case literal(String)
        case string(String)
        case node(JSONNode)
    }

    enum Content {
        case empty
        case scalar(Slot)
        case object([(key: String, slot: Slot)])
        case array([Slot])
    }

    var content = Content.empty
    /// Where this node sits, for coding paths (built only when an encoding asks for one).
    unowned let parent: JSONNode?
    let key: (any CodingKey)?

    init(parent: JSONNode?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: JSONNode? = self
        while let current = node, let key = current.key {
            path.append(key)
            node = current.parent
        }
        return path.reversed()
    }

    func set(_ slot: Slot) {
        content = .scalar(slot)
    }

    func append(member key: String, _ slot: Slot) {
        guard case .object(var members) = content else { return }
        content = .empty  // keep `members` uniquely referenced while appending
        members.append((key, slot))
        content = .object(members)
    }

    func append(element slot: Slot) {
        guard case .array(var elements) = content else { return }
        content = .empty
        elements.append(slot)
        content = .array(elements)
    }

    var count: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    func write(to output: inout [UInt8]) {
        switch content {
        case .empty:
            output.append(contentsOf: "{}".utf8)  // a value that encoded nothing, as JSONEncoder writes it
        case .scalar(let slot):
            JSONNode.write(slot, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONNode.write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // Sorted by UTF-8 bytes; a key encoded twice keeps its last value, as a dictionary would.
            let order = members.indices.sorted { left, right in
                let a = members[left].key.utf8
                let b = members[right].key.utf8
                if a.elementsEqual(b) { return left < right }
                return a.lexicographicallyPrecedes(b)
            }
            var first = true
            for (position, index) in order.enumerated() {
                if position + 1 < order.count, members[order[position + 1]].key == members[index].key { continue }
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                JSONNode.appendQuoted(members[index].key, to: &output)
                output.append(UInt8(ascii: ":"))
                JSONNode.write(members[index].slot, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func write(_ slot: Slot, to output: inout [UInt8]) {
        switch slot {
        case .null: output.append(contentsOf: "null".utf8)
        case .literal(let text): output.append(contentsOf: text.utf8)
        case .string(let text): appendQuoted(text, to: &output)
        case .node(let node): node.write(to: &output)
        }
    }

    /// A JSON string, escaped as Foundation's JSONWriter escapes (short forms for `\b \f \n \r \t`, `\u00XX` for
    /// other controls, `/` left alone).
    static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case 0x22: output.append(contentsOf: "\\\"".utf8)
                case 0x5C: output.append(contentsOf: "\\\\".utf8)
                case 0x08: output.append(contentsOf: "\\b".utf8)
                case 0x0C: output.append(contentsOf: "\\f".utf8)
                case 0x0A: output.append(contentsOf: "\\n".utf8)
                case 0x0D: output.append(contentsOf: "\\r".utf8)
                case 0x09: output.append(contentsOf: "\\t".utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(hex[Int(byte >> 4)])
                    output.append(hex[Int(byte & 0xF)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }

    static func number(_ value: Double, at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw SortedJSONEncoder.Unsupported(description: "non-finite number \(value) at \(path().map(\.stringValue))")
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    static func number(_ value: Float, at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw SortedJSONEncoder.Unsupported(description: "non-finite number \(value) at \(path().map(\.stringValue))")
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// The `Encoder` handed to `encode(to:)`: every container it gives out writes into its one node.
struct JSONTreeEncoder: Encoder {
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
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return JSONUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(encoder: self)
    }

    /// Encodes `value` into this encoder's node through its `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        guard !SortedJSONEncoder.isSpecialCased(T.self) else {
            throw SortedJSONEncoder.Unsupported(
                description: "\(T.self) at \(codingPath.map(\.stringValue)) needs JSONEncoder's own strategy")
        }
        try value.encode(to: self)
    }

    /// The slot for `value`: inline for the common scalars, a child node for the rest.
    func slot<T: Encodable>(for value: T, key: any CodingKey) throws -> JSONNode.Slot {
        switch value {
        case let text as String: return .string(text)
        case let number as Int: return .literal(String(number))
        case let flag as Bool: return .literal(flag ? "true" : "false")
        default:
            let child = JSONTreeEncoder(node: JSONNode(parent: node, key: key), userInfo: userInfoStorage)
            try child.encodeValue(value)
            if case .scalar(let slot) = child.node.content { return slot }
            return .node(child.node)
        }
    }

    func child(_ key: any CodingKey) -> JSONTreeEncoder {
        JSONTreeEncoder(node: JSONNode(parent: node, key: key), userInfo: userInfoStorage)
    }
}

struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

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
        let child = JSONTreeEncoder(node: JSONNode(parent: encoder.node.parent, key: encoder.node.key), userInfo: encoder.userInfoStorage)
        encoder.node.append(member: name, .node(child.node))
        return child
    }
}

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

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
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
        switch value {
        case let text as String: put(.string(text))
        case let number as Int: put(.literal(String(number)))
        case let flag as Bool: put(.literal(flag ? "true" : "false"))
        default: try encoder.encodeValue(value)
        }
    }
}
