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
///
/// A text that is a few changes away from one read already (the next version of a snapshot) is read against it
/// (``init(_:after:)``): a value whose bytes the older text has at the same place in its tree is not read again, its
/// ranges are the older ones moved, so the cost is a `memcmp` over the unchanged parts and a read of the changed ones.
public struct IndexedJSON: Sendable {
    /// One value: its bytes, its name's bytes when it is an object's member (quotes included), its next sibling
    /// (-1: none), and the first node after its own subtree (a subtree's nodes are consecutive, in the order of the
    /// text, so a container's first child, when it has one, is the node after it). In a text read against an older one, `older` says what the older
    /// text's node at the same place was found to be: the same bytes (that node, ≥ 0), other bytes (node `n` as
    /// `-n - 2`), or nothing to compare with (-1).
    struct Node: Equatable, Sendable {
        var start: Int32
        var end: Int32
        var nameStart: Int32 = -1
        var nameEnd: Int32 = -1
        var nextSibling: Int32 = -1
        var after: Int32 = -1
        var older: Int32 = -1

        /// The first child of this node, node number `index` (-1: none).
        func firstChild(of index: Int) -> Int { Int(after) > index + 1 ? index + 1 : -1 }
    }

    /// Who a text is, for a text read against it (a class instance: equal only to itself).
    final class Identity: Sendable {}

    let bytes: [UInt8]
    private(set) var nodes: [Node] = []
    let identity = Identity()
    /// The text this one was read against (its nodes' `older` are that text's), if any.
    let olderIdentity: Identity?

    /// Reads `bytes` (one JSON value, whitespace around it allowed; at most 2 GB).
    /// - Throws: ``JSONParser/Failure`` when the text is not JSON as far as its structure goes (values are checked
    ///   as they are parsed, by ``value(_:)``).
    public init(_ bytes: [UInt8]) throws(JSONParser.Failure) {
        try self.init(bytes, foldBelow: Self.foldBelow)
    }

    /// ``init(_:)`` with containers shorter than `foldBelow` bytes folded (0: none), for tests and fuzzing.
    package init(_ bytes: [UInt8], foldBelow: Int) throws(JSONParser.Failure) {
        try self.init(bytes, olderBytes: [], olderNodes: [], olderIdentity: nil, foldBelow: foldBelow)
    }

    /// A container shorter than this many bytes is one node (see ``isFolded(_:)``): most changes of a snapshot are
    /// inside such small objects (a message, an action), whose children are cheaper to read when one differs than
    /// to carry from version to version.
    package static let foldBelow = 256

    /// Reads `bytes` as ``init(_:)`` does, taking from `older` every value the two texts share at the same place in
    /// their trees (an object's member of the same name, an array's element at the same position) instead of
    /// reading it: the nodes are the ones ``init(_:)`` would make.
    /// - Throws: ``JSONParser/Failure`` as ``init(_:)`` does.
    public init(_ bytes: [UInt8], after older: IndexedJSON) throws(JSONParser.Failure) {
        try self.init(bytes, after: older, foldBelow: Self.foldBelow)
    }

    /// ``init(_:after:)`` with containers shorter than `foldBelow` bytes folded (0: none), for tests and fuzzing.
    package init(_ bytes: [UInt8], after older: IndexedJSON, foldBelow: Int) throws(JSONParser.Failure) {
        try self.init(
            bytes, olderBytes: older.bytes, olderNodes: older.nodes, olderIdentity: older.identity, foldBelow: foldBelow
        )
    }

    /// Folded container `node` read on its own, every value listed (its root is node 0).
    func unfolded(_ node: Int) throws(JSONParser.Failure) -> IndexedJSON {
        try IndexedJSON(Array(bytes[range(node)]), olderBytes: [], olderNodes: [], olderIdentity: nil, foldBelow: 0)
    }

    private init(
        _ bytes: [UInt8], olderBytes: [UInt8], olderNodes: [Node], olderIdentity: Identity?, foldBelow: Int
    ) throws(JSONParser.Failure) {
        guard bytes.count < Int(Int32.max) else { throw JSONParser.Failure(reason: "text too long", offset: 0) }
        self.bytes = bytes
        self.olderIdentity = olderIdentity
        let capacity = olderNodes.isEmpty ? bytes.count / 16 : olderNodes.count + olderNodes.count / 8 + 64
        let result = bytes.withUnsafeBufferPointer { buffer in
            olderBytes.withUnsafeBufferPointer { olderBuffer in
                olderNodes.withUnsafeBufferPointer { olderNodeBuffer -> Result<[Node], JSONParser.Failure> in
                    var reader = IndexedJSONReader(
                        bytes: buffer, capacity: capacity, olderBytes: olderBuffer, olderNodes: olderNodeBuffer,
                        foldBelow: foldBelow)
                    return Result { () throws(JSONParser.Failure) -> [Node] in
                        var index = reader.skipWhitespace(from: 0)
                        _ = try reader.read(at: &index, depth: 0, like: olderNodeBuffer.isEmpty ? -1 : 0)
                        guard reader.skipWhitespace(from: index) == buffer.count else {
                            throw JSONParser.Failure(reason: "unexpected data after the JSON value", offset: index)
                        }
                        return reader.nodes
                    }
                }
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

    /// Whether node `node` of this text and node `other` of `text` are the same bytes: known without comparing
    /// them when `text` was read against this text and compared that pair.
    func same(_ node: Int, as other: Int, in text: IndexedJSON) -> Bool {
        if text.olderIdentity === identity {
            let found = Int(text.nodes[other].older)
            if found == node { return true }
            if found == -node - 2 { return false }
        }
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

    /// The first child of container `node` (-1: none, or not listed: ``isFolded(_:)``).
    func firstChild(_ node: Int) -> Int { nodes[node].firstChild(of: node) }

    /// Whether `node` is a container with children that are not listed (it is shorter than ``foldBelow``): a
    /// diff reads it on its own (``unfolded(_:)``) when it differs.
    func isFolded(_ node: Int) -> Bool {
        guard Int(nodes[node].after) == node + 1 else { return false }
        let start = Int(nodes[node].start)
        guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else { return false }
        var index = start + 1
        while IndexedJSONReader.isWhitespace(bytes[index]) { index += 1 }
        return bytes[index] != UInt8(ascii: "}") && bytes[index] != UInt8(ascii: "]")
    }

    /// The node after `node` in its container (-1: none).
    func nextSibling(_ node: Int) -> Int { Int(nodes[node].nextSibling) }

    /// `node` and the siblings after it, in order (none for -1).
    func siblings(from node: Int) -> [Int] {
        var siblings: [Int] = []
        var sibling = node
        while sibling >= 0 {
            siblings.append(sibling)
            sibling = Int(nodes[sibling].nextSibling)
        }
        return siblings
    }

    /// Whether member `node` of this text and member `other` of `text` have the same name: the same bytes, or,
    /// when either is escaped, the same text (known without comparing when `text` was read against this text and
    /// paired them).
    func sameName(_ node: Int, as other: Int, in text: IndexedJSON) -> Bool {
        if text.olderIdentity === identity {
            // Paired by their names' bytes when `text` was read.
            let found = Int(text.nodes[other].older)
            if found == node || found == -node - 2 { return true }
        }
        let left = nodes[node]
        let right = text.nodes[other]
        let count = Int(left.nameEnd - left.nameStart)
        let equal =
            count == Int(right.nameEnd - right.nameStart)
            && bytes.withUnsafeBufferPointer { mine in
                text.bytes.withUnsafeBufferPointer { theirs in
                    memcmp(mine.baseAddress! + Int(left.nameStart), theirs.baseAddress! + Int(right.nameStart), count)
                        == 0
                }
            }
        if equal { return true }
        guard isEscaped(node) || text.isEscaped(other) else { return false }
        return (try? name(of: node)) == (try? text.name(of: other))
    }

    /// Whether member `node`'s name has an escape in it.
    private func isEscaped(_ node: Int) -> Bool {
        bytes[Int(nodes[node].nameStart)..<Int(nodes[node].nameEnd)].contains(UInt8(ascii: "\\"))
    }

    /// The name of member `node`.
    func name(of node: Int) throws(JSONParser.Failure) -> String {
        try name(Int(nodes[node].nameStart)..<Int(nodes[node].nameEnd))
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
