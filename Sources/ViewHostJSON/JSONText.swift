/// A JSON text read once for the byte ranges of all its values, without making values of them: what ``JSONPatch``
/// compares (two canonical texts' equal parts are equal bytes) before it parses only the parts that changed. One
/// pass over the text makes a tree of ranges; a diff then walks the two trees.
struct JSONText {
    /// One value: its bytes, and for a container its children (a member's with its name's bytes, quotes included).
    struct Node {
        let range: Range<Int>
        var name: Range<Int>?
        var children: [Int] = []
    }

    let bytes: [UInt8]
    private(set) var nodes: [Node] = []

    /// Reads `bytes` (one JSON value, whitespace around it allowed).
    /// - Throws: ``JSONParser/Failure`` when the text is not JSON as far as its structure goes (values are checked
    ///   as they are parsed, by ``value(_:)``).
    init(_ bytes: [UInt8]) throws(JSONParser.Failure) {
        self.bytes = bytes
        var index = skipWhitespace(from: 0)
        _ = try read(at: &index, depth: 0)
        guard skipWhitespace(from: index) == bytes.count else {
            throw JSONParser.Failure(reason: "unexpected data after the JSON value", offset: index)
        }
    }

    /// The root value.
    var root: Int { 0 }

    /// The first byte of node `node` (`{`, `[`, `"`, a digit…).
    func kind(_ node: Int) -> UInt8 { bytes[nodes[node].range.lowerBound] }

    /// Whether two nodes, of this text and `other`, are the same bytes.
    func same(_ node: Int, as other: Int, in text: JSONText) -> Bool {
        bytes[nodes[node].range].elementsEqual(text.bytes[text.nodes[other].range])
    }

    /// The members of object `node`: each name and its value's node.
    func members(of node: Int) throws(JSONParser.Failure) -> [(name: String, node: Int)] {
        var members: [(name: String, node: Int)] = []
        members.reserveCapacity(nodes[node].children.count)
        for child in nodes[node].children {
            guard let name = nodes[child].name else { continue }
            members.append((try self.name(name), child))
        }
        return members
    }

    /// The element nodes of array `node`.
    func elements(of node: Int) -> [Int] { nodes[node].children }

    /// The value of `node`, parsed.
    func value(_ node: Int) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Array(bytes[nodes[node].range]), maxDepth: 512)
    }

    /// Reads the value at `index` into a node (and its children), leaving `index` after it.
    private mutating func read(at index: inout Int, depth: Int) throws(JSONParser.Failure) -> Int {
        guard depth <= 512 else { throw JSONParser.Failure(reason: "nesting deeper than 512", offset: index) }
        guard index < bytes.count else { throw JSONParser.Failure(reason: "unexpected end of input", offset: index) }
        let start = index
        let node = nodes.count
        nodes.append(Node(range: start..<start))
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = bytes[index] == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index = skipWhitespace(from: index + 1)
            var children: [Int] = []
            if index < bytes.count, bytes[index] == close {
                index += 1
            } else {
                while true {
                    var name: Range<Int>?
                    if isObject {
                        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                            throw JSONParser.Failure(reason: "expected a member name", offset: index)
                        }
                        let nameStart = index
                        index = try end(ofStringAt: index)
                        name = nameStart..<index
                        index = skipWhitespace(from: index)
                        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                            throw JSONParser.Failure(reason: "expected ':'", offset: index)
                        }
                        index = skipWhitespace(from: index + 1)
                    }
                    let child = try read(at: &index, depth: depth + 1)
                    nodes[child].name = name
                    children.append(child)
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
            }
            nodes[node].children = children
        case UInt8(ascii: "\""):
            index = try end(ofStringAt: index)
        default:
            // A number or a literal: up to the next delimiter (its exact form is checked when it is parsed).
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: break
                default:
                    index += 1
                    continue
                }
                break
            }
            guard index > start else { throw JSONParser.Failure(reason: "unexpected character", offset: start) }
        }
        nodes[node] = Node(range: start..<index, name: nil, children: nodes[node].children)
        return node
    }

    /// Where the string starting at `start` (its opening quote) ends, one past its closing quote.
    private func end(ofStringAt start: Int) throws(JSONParser.Failure) -> Int {
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

    /// A member name's text (its range includes the quotes).
    private func name(_ range: Range<Int>) throws(JSONParser.Failure) -> String {
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        guard case .string(let text) = try JSONParser.parse(Array(bytes[range])) else {
            throw JSONParser.Failure(reason: "expected a member name", offset: range.lowerBound)
        }
        return text
    }

    private func skipWhitespace(from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        return index
    }
}
