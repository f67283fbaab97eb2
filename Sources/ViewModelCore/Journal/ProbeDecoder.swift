import Foundation

/// The decoder ``StoredShapeProbe`` hands a type: it records what the type asks for in a ``ProbeNode`` and answers
/// with neutral values (``ProbeRun/make(_:into:depth:)``).
struct ProbeDecoder: Decoder {
    let run: ProbeRun
    let node: ProbeNode
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        run.opened(node)
        return KeyedDecodingContainer(
            ProbeKeyedContainer<Key>(run: run, node: node, depth: depth, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if case .tuple = node.kind {} else { node.kind = .tuple([]) }
        return ProbeUnkeyedContainer(run: run, node: node, depth: depth, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValueContainer(run: run, node: node, depth: depth, codingPath: codingPath)
    }
}

/// A key of a probed path (only its name is kept).
private struct ProbeKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let run: ProbeRun
    let node: ProbeNode
    let depth: Int
    let codingPath: [any CodingKey]

    /// A type that lists the keys it finds reads names the probe cannot know: an enum with associated values (one
    /// key, its case), or a type keyed by whatever it is given. Its shape is unknown; without keys it cannot be
    /// made, which ends the probe of the type that reads it.
    var allKeys: [Key] {
        node.kind = .unknown
        return []
    }

    /// Any member may be there: the type then reads it. One it asks about first is one that may be missing.
    func contains(_ key: Key) -> Bool {
        node.markOptional(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        node.markOptional(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try run.make(T.self, into: node.member(key.stringValue), depth: depth + 1)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        node.markOptional(key.stringValue)
        return try? run.make(T.self, into: node.member(key.stringValue), depth: depth + 1)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try superDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try superDecoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(forKey: ProbeKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(forKey: ProbeKey(stringValue: key.stringValue))
    }

    private func superDecoder(forKey key: ProbeKey) throws -> any Decoder {
        ProbeDecoder(run: run, node: node.member(key.stringValue), depth: depth + 1, codingPath: codingPath + [key])
    }
}

/// Values by position, each recorded in its own node: a list read this way (its own `init(from:)`) has one element
/// (``count`` 1), so the element's shape is seen; a type that reads a fixed number reads each.
private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let run: ProbeRun
    let node: ProbeNode
    let depth: Int
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(run: ProbeRun, node: ProbeNode, depth: Int, codingPath: [any CodingKey]) {
        self.run = run
        self.node = node
        self.depth = depth
        self.codingPath = codingPath
    }

    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex >= 1 }

    /// The node of the value at the current position.
    private mutating func next() -> ProbeNode {
        guard case .tuple(var elements) = node.kind else { return ProbeNode() }
        defer { currentIndex += 1 }
        if currentIndex < elements.count { return elements[currentIndex] }
        let element = ProbeNode()
        elements.append(element)
        node.kind = .tuple(elements)
        return element
    }

    mutating func decodeNil() throws -> Bool {
        guard case .tuple(let elements) = node.kind else { return false }
        if currentIndex < elements.count {
            elements[currentIndex].nullable = true
        } else {
            let element = ProbeNode()
            element.nullable = true
            node.kind = .tuple(elements + [element])
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = next()
        return try run.make(T.self, into: element, depth: depth + 1)
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        let element = next()
        element.nullable = true
        return try? run.make(T.self, into: element, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try superDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try superDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = currentIndex
        return ProbeDecoder(
            run: run, node: next(), depth: depth + 1, codingPath: codingPath + [ProbeKey(intValue: index)])
    }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let run: ProbeRun
    let node: ProbeNode
    let depth: Int
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        node.nullable = true
        return false
    }

    /// The value itself: a type that wraps one value has that value's shape.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try run.make(T.self, into: node, depth: depth + 1)
    }
}
