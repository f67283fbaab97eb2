#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON text read once for the byte ranges of all its values, without making values of them: what ``JSONPatch``
/// compares (two canonical texts' equal parts are equal bytes) before it parses only the parts that changed. One
/// pass over the text makes a flat tree of ranges (a container's children linked from its first); a diff then walks
/// the two trees, comparing parts with `memcmp`. Read once, a text can be diffed against several others (a snapshot
/// is the newer side of one patch and the older side of the next).
public struct IndexedJSON: Sendable {
    /// One value: its bytes, its name's bytes when it is an object's member (quotes included), its first child
    /// and its next sibling (-1: none).
    struct Node: Sendable {
        var start: Int32
        var end: Int32
        var nameStart: Int32 = -1
        var nameEnd: Int32 = -1
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
    }

    let bytes: [UInt8]
    private(set) var nodes: [Node] = []

    /// Reads `bytes` (one JSON value, whitespace around it allowed; at most 2 GB).
    /// - Throws: ``JSONParser/Failure`` when the text is not JSON as far as its structure goes (values are checked
    ///   as they are parsed, by ``value(_:)``).
    public init(_ bytes: [UInt8]) throws(JSONParser.Failure) {
        guard bytes.count < Int(Int32.max) else { throw JSONParser.Failure(reason: "text too long", offset: 0) }
        self.bytes = bytes
        var nodes: [Node] = []
        nodes.reserveCapacity(bytes.count / 16)
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<[Node], JSONParser.Failure> in
            var reader = Reader(bytes: buffer, nodes: nodes)
            return Result { () throws(JSONParser.Failure) -> [Node] in
                var index = reader.skipWhitespace(from: 0)
                _ = try reader.read(at: &index, depth: 0)
                guard reader.skipWhitespace(from: index) == buffer.count else {
                    throw JSONParser.Failure(reason: "unexpected data after the JSON value", offset: index)
                }
                return reader.nodes
            }
        }
        self.nodes = try result.get()
    }

    /// The root value.
    var root: Int { 0 }

    /// The bytes of node `node`.
    func range(_ node: Int) -> Range<Int> { Int(nodes[node].start)..<Int(nodes[node].end) }

    /// The first byte of node `node` (`{`, `[`, `"`, a digit…).
    func kind(_ node: Int) -> UInt8 { bytes[Int(nodes[node].start)] }

    /// Whether node `node` of this text and node `other` of `text` are the same bytes.
    func same(_ node: Int, as other: Int, in text: IndexedJSON) -> Bool {
        let left = nodes[node]
        let right = text.nodes[other]
        let count = Int(left.end - left.start)
        guard count == Int(right.end - right.start) else { return false }
        return bytes.withUnsafeBufferPointer { mine in
            text.bytes.withUnsafeBufferPointer { theirs in
                memcmp(mine.baseAddress! + Int(left.start), theirs.baseAddress! + Int(right.start), count) == 0
            }
        }
    }

    /// The children of container `node`, in order.
    func children(of node: Int) -> [Int] {
        var children: [Int] = []
        var child = Int(nodes[node].firstChild)
        while child >= 0 {
            children.append(child)
            child = Int(nodes[child].nextSibling)
        }
        return children
    }

    /// The members of object `node`: each name and its value's node.
    func members(of node: Int) throws(JSONParser.Failure) -> [(name: String, node: Int)] {
        var members: [(name: String, node: Int)] = []
        for child in children(of: node) where nodes[child].nameStart >= 0 {
            members.append((try name(Int(nodes[child].nameStart)..<Int(nodes[child].nameEnd)), child))
        }
        return members
    }

    /// The value of `node`, parsed.
    func value(_ node: Int) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Array(bytes[range(node)]), maxDepth: 512)
    }

    /// A member name's text (its range includes the quotes).
    private func name(_ range: Range<Int>) throws(JSONParser.Failure) -> String {
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        guard case .string(let text) = try JSONParser.parse(Array(bytes[range])) else {
            throw JSONParser.Failure(reason: "expected a member name", offset: range.lowerBound)
        }
        return text
    }
}

/// One pass over a text's bytes, without bounds checks past the ones it makes itself, appending its nodes.
private struct Reader {
    typealias Node = IndexedJSON.Node
    let bytes: UnsafeBufferPointer<UInt8>
    var nodes: [Node]

    /// Reads the value at `index` into a node (and its children), leaving `index` after it.
    mutating func read(at index: inout Int, depth: Int) throws(JSONParser.Failure) -> Int {
        guard depth <= 512 else { throw JSONParser.Failure(reason: "nesting deeper than 512", offset: index) }
        guard index < bytes.count else { throw JSONParser.Failure(reason: "unexpected end of input", offset: index) }
        let start = index
        let node = nodes.count
        nodes.append(Node(start: Int32(start), end: Int32(start)))
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = bytes[index] == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index = skipWhitespace(from: index + 1)
            if index < bytes.count, bytes[index] == close {
                index += 1
                break
            }
            var previous = -1
            while true {
                var nameStart = -1
                var nameEnd = -1
                if isObject {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw JSONParser.Failure(reason: "expected a member name", offset: index)
                    }
                    nameStart = index
                    index = try end(ofStringAt: index)
                    nameEnd = index
                    index = skipWhitespace(from: index)
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                        throw JSONParser.Failure(reason: "expected ':'", offset: index)
                    }
                    index = skipWhitespace(from: index + 1)
                }
                let child = try read(at: &index, depth: depth + 1)
                nodes[child].nameStart = Int32(nameStart)
                nodes[child].nameEnd = Int32(nameEnd)
                if previous < 0 { nodes[node].firstChild = Int32(child) } else { nodes[previous].nextSibling = Int32(child) }
                previous = child
                index = skipWhitespace(from: index)
                guard index < bytes.count else { throw JSONParser.Failure(reason: "unexpected end of input", offset: index) }
                if bytes[index] == close {
                    index += 1
                    break
                }
                guard bytes[index] == UInt8(ascii: ",") else {
                    throw JSONParser.Failure(reason: "expected ',' or '\(Character(Unicode.Scalar(close)))'", offset: index)
                }
                index = skipWhitespace(from: index + 1)
            }
        case UInt8(ascii: "\""):
            index = try end(ofStringAt: index)
        default:
            // A number or a literal: up to the next delimiter (its exact form is checked when it is parsed).
            scan: while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: break scan
                default: index += 1
                }
            }
            guard index > start else { throw JSONParser.Failure(reason: "unexpected character", offset: start) }
        }
        nodes[node].end = Int32(index)
        return node
    }

    /// Where the string starting at `start` (its opening quote) ends, one past its closing quote.
    func end(ofStringAt start: Int) throws(JSONParser.Failure) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        throw JSONParser.Failure(reason: "unterminated string", offset: start)
    }

    func skipWhitespace(from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        return index
    }
}
