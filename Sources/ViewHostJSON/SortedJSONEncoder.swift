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
        let root = JSONNode()
        try JSONTreeEncoder(node: root, codingPath: [], userInfo: userInfo).encodeValue(value)
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        try root.write(to: &output)
        return output
    }

    static let unsupportedTypeNames: Set<String> = ["Date", "Data", "URL", "Decimal", "NSDate", "NSData", "NSURL"]
}

/// One value of the tree being encoded; containers are filled in place as the value's `encode(to:)` runs.
final class JSONNode {
    enum Content {
        case empty
        case null
        /// Text written as is: a number, `true`, `false`.
        case literal(String)
        case string(String)
        case object([(key: String, node: JSONNode)])
        case array([JSONNode])
    }

    var content = Content.empty

    func write(to output: inout [UInt8]) throws {
        switch content {
        case .empty:
            output.append(contentsOf: "{}".utf8)  // a value that encoded nothing, as JSONEncoder writes it
        case .null:
            output.append(contentsOf: "null".utf8)
        case .literal(let text):
            output.append(contentsOf: text.utf8)
        case .string(let text):
            JSONNode.appendQuoted(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try element.write(to: &output)
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
                try members[index].node.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
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

    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw SortedJSONEncoder.Unsupported(description: "non-finite number \(value) at \(codingPath.map(\.stringValue))")
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    static func number(_ value: Float, codingPath: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw SortedJSONEncoder.Unsupported(description: "non-finite number \(value) at \(codingPath.map(\.stringValue))")
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// The `Encoder` handed to `encode(to:)`: every container it gives out writes into its one node.
struct JSONTreeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let userInfoStorage: [CodingUserInfoKey: any Sendable]

    init(node: JSONNode, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.node = node
        self.codingPath = codingPath
        self.userInfoStorage = userInfo
    }

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

    /// Encodes `value` into this encoder's node: scalars directly, anything else through its `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let text as String: node.content = .string(text)
        case let flag as Bool: node.content = .literal(flag ? "true" : "false")
        case let number as Int: node.content = .literal(String(number))
        case let number as Double: node.content = .literal(try JSONNode.number(number, codingPath: codingPath))
        default:
            let typeName = String(describing: T.self)
            if SortedJSONEncoder.unsupportedTypeNames.contains(typeName) {
                throw SortedJSONEncoder.Unsupported(
                    description: "\(typeName) at \(codingPath.map(\.stringValue)) needs JSONEncoder's own strategy")
            }
            try value.encode(to: self)
        }
    }

    func child(_ key: any CodingKey) -> JSONTreeEncoder {
        JSONTreeEncoder(node: JSONNode(), codingPath: codingPath + [key], userInfo: userInfoStorage)
    }

    func append(member key: String, _ child: JSONNode) {
        guard case .object(var members) = node.content else { return }
        node.content = .empty  // keep `members` uniquely referenced while appending
        members.append((key, child))
        node.content = .object(members)
    }

    func append(element child: JSONNode) {
        guard case .array(var elements) = node.content else { return }
        node.content = .empty
        elements.append(child)
        node.content = .array(elements)
    }

    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
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

    private func put(_ content: JSONNode.Content, _ key: Key) {
        let node = JSONNode()
        node.content = content
        encoder.append(member: key.stringValue, node)
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.literal(value ? "true" : "false"), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        put(.literal(try JSONNode.number(value, codingPath: codingPath + [key])), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(.literal(try JSONNode.number(value, codingPath: codingPath + [key])), key)
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
        let child = encoder.child(key)
        try child.encodeValue(value)
        encoder.append(member: key.stringValue, child.node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(key)
        encoder.append(member: key.stringValue, child.node)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = encoder.child(key)
        encoder.append(member: key.stringValue, child.node)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue)
    }

    private func superEncoder(named name: String) -> any Encoder {
        let child = JSONTreeEncoder(node: JSONNode(), codingPath: codingPath, userInfo: encoder.userInfoStorage)
        encoder.append(member: name, child.node)
        return child
    }
}

struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.count }

    private func put(_ content: JSONNode.Content) {
        let node = JSONNode()
        node.content = content
        encoder.append(element: node)
    }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws {
        put(.literal(try JSONNode.number(value, codingPath: codingPath + [JSONIndexKey(count)])))
    }
    mutating func encode(_ value: Float) throws {
        put(.literal(try JSONNode.number(value, codingPath: codingPath + [JSONIndexKey(count)])))
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
        let child = encoder.child(JSONIndexKey(count))
        try child.encodeValue(value)
        encoder.append(element: child.node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(JSONIndexKey(count))
        encoder.append(element: child.node)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = encoder.child(JSONIndexKey(count))
        encoder.append(element: child.node)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(JSONIndexKey(count))
        encoder.append(element: child.node)
        return child
    }
}

struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ content: JSONNode.Content) { encoder.node.content = content }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.literal(try JSONNode.number(value, codingPath: codingPath))) }
    mutating func encode(_ value: Float) throws { put(.literal(try JSONNode.number(value, codingPath: codingPath))) }
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
        try encoder.encodeValue(value)
    }
}
