#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One pass over a text's bytes for ``IndexedJSON``, without bounds checks past the ones it makes itself, appending
/// its nodes. Given an older text's nodes, a value is first looked for at the same place in the older tree: when the
/// older value's bytes are the ones here, its nodes are copied (moved to this text's offsets) instead of read.
struct IndexedJSONReader {
    typealias Node = IndexedJSON.Node
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var nodes: [Node] = []
    /// The older text and its nodes (empty: none).
    let olderBytes: UnsafeBufferPointer<UInt8>
    let olderNodes: UnsafeBufferPointer<Node>
    /// A container shorter than this many bytes is one node, its children not listed (0: every value listed).
    let foldBelow: Int

    /// What the last comparison found: this text's bytes from where it began up to `sameUntil` are the older
    /// text's `shift` bytes earlier, and, when `differs`, the byte at `sameUntil` is not. Values are read in the
    /// order of the text, so a later value inside that stretch at that shift needs no comparing again, nor does one
    /// that holds the differing byte: the bytes are compared once, however deep the value that changed.
    private var shift = 0
    private var sameUntil = 0
    private var differs = false

    /// How far past the expected member an older object's members are searched for a name (its members are
    /// usually in the same order, sorted): a name not found is read, not copied, which is only slower.
    static let memberSearch = 8

    init(
        bytes: UnsafeBufferPointer<UInt8>, capacity: Int, olderBytes: UnsafeBufferPointer<UInt8>,
        olderNodes: UnsafeBufferPointer<Node>, foldBelow: Int
    ) {
        self.bytes = bytes
        self.olderBytes = olderBytes
        self.olderNodes = olderNodes
        self.foldBelow = foldBelow
        nodes.reserveCapacity(capacity)
    }

    /// Reads the value at `index` into a node (and its children), leaving `index` after it. `like` is the older
    /// text's node at the same place (-1: none). With `siblings`, the values after it in its container that are
    /// the same bytes as the older node's next siblings are copied with it (the rest of a run both texts share):
    /// `last` is the last value read, `first` the first.
    mutating func read(
        at index: inout Int, depth: Int, like older: Int, siblings: Bool = false
    ) throws(JSONParser.Failure) -> (first: Int, last: Int) {
        guard depth <= 512 else { throw JSONParser.Failure(reason: "nesting deeper than 512", offset: index) }
        guard index < bytes.count else { throw JSONParser.Failure(reason: "unexpected end of input", offset: index) }
        if older >= 0, let copied = copy(older, at: index, siblings: siblings) {
            index = Int(nodes[copied.last].end)
            return copied
        }
        let node = try readValue(at: &index, depth: depth, like: older)
        return (node, node)
    }

    /// ``read(at:depth:like:siblings:)`` without looking for the value in the older text.
    private mutating func readValue(at index: inout Int, depth: Int, like older: Int) throws(JSONParser.Failure) -> Int
    {
        let start = index
        let node = nodes.count
        nodes.append(Node(start: Int32(start), end: Int32(start)))
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = bytes[index] == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            // The older value's children, when it is a container of the same kind: where this one's are looked for.
            var olderNext =
                older >= 0 && olderBytes[Int(olderNodes[older].start)] == bytes[index]
                ? olderNodes[older].firstChild(of: older) : -1
            index = skipWhitespace(from: index + 1)
            if index < bytes.count, bytes[index] == close {
                index += 1
                break
            }
            var previous = -1
            while true {
                var nameStart = -1
                var nameEnd = -1
                var like = -1
                if isObject {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw JSONParser.Failure(reason: "expected a member name", offset: index)
                    }
                    nameStart = index
                    index = try end(ofStringAt: index)
                    nameEnd = index
                    if olderNext >= 0 { like = olderMember(named: nameStart..<nameEnd, from: &olderNext) }
                    index = skipWhitespace(from: index)
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                        throw JSONParser.Failure(reason: "expected ':'", offset: index)
                    }
                    index = skipWhitespace(from: index + 1)
                } else if olderNext >= 0 {
                    like = element(like: olderNext, at: index, olderEnd: Int(olderNodes[older].end))
                    olderNext = Int(olderNodes[like].nextSibling)
                }
                let (child, last) = try read(at: &index, depth: depth + 1, like: like, siblings: true)
                nodes[child].nameStart = Int32(nameStart)
                nodes[child].nameEnd = Int32(nameEnd)
                if previous >= 0 { nodes[previous].nextSibling = Int32(child) }
                previous = last
                if last != child { olderNext = Int(olderNodes[Int(nodes[last].older)].nextSibling) }
                index = skipWhitespace(from: index)
                guard index < bytes.count else {
                    throw JSONParser.Failure(reason: "unexpected end of input", offset: index)
                }
                if bytes[index] == close {
                    index += 1
                    break
                }
                guard bytes[index] == UInt8(ascii: ",") else {
                    throw JSONParser.Failure(
                        reason: "expected ',' or '\(Character(Unicode.Scalar(close)))'", offset: index)
                }
                index = skipWhitespace(from: index + 1)
            }
            // A short container is compared as a whole: its children are read when a diff needs them.
            if index - start < foldBelow { nodes.removeLast(nodes.count - node - 1) }
        case UInt8(ascii: "\""):
            index = try end(ofStringAt: index)
        default:
            // A number or a literal: up to the next delimiter (its exact form is checked when it is parsed).
            while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
            guard index > start else { throw JSONParser.Failure(reason: "unexpected character", offset: start) }
        }
        nodes[node].end = Int32(index)
        nodes[node].after = Int32(nodes.count)
        if older >= 0 { nodes[node].older = Int32(-older - 2) }
        return node
    }

    /// Older node `older`'s subtree copied as the value at `index`, when that value is the same bytes; nil when
    /// it is not. A string or a container ends where its bytes say; a number or a literal must also end there
    /// (`12` is not the start of `123`). With `siblings`, the older node's next siblings are copied with it for as
    /// long as they lie inside the bytes found the same (their nodes follow its own in the older text).
    private mutating func copy(_ older: Int, at index: Int, siblings: Bool) -> (first: Int, last: Int)? {
        let source = olderNodes[older]
        let count = Int(source.end - source.start)
        let offset = index - Int(source.start)
        guard isSame(older, at: index) else { return nil }
        switch olderBytes[Int(source.start)] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""): break
        default: guard index + count == bytes.count || isDelimiter(bytes[index + count]) else { return nil }
        }
        // A sibling ending before the last byte found the same is followed by the same byte as in the older text.
        var lastOlder = older
        while siblings, olderNodes[lastOlder].nextSibling >= 0,
            Int(olderNodes[Int(olderNodes[lastOlder].nextSibling)].end) + offset < sameUntil
        {
            lastOlder = Int(olderNodes[lastOlder].nextSibling)
        }
        let first = nodes.count
        let shift = Int32(offset)
        let renumber = Int32(first - older)
        nodes.append(contentsOf: UnsafeBufferPointer(rebasing: olderNodes[older..<Int(olderNodes[lastOlder].after)]))
        nodes.withUnsafeMutableBufferPointer { copied in
            for position in first..<copied.count {
                copied[position].start &+= shift
                copied[position].end &+= shift
                copied[position].nameStart &+= copied[position].nameStart >= 0 ? shift : 0
                copied[position].nameEnd &+= copied[position].nameEnd >= 0 ? shift : 0
                copied[position].nextSibling &+= copied[position].nextSibling >= 0 ? renumber : 0
                copied[position].after &+= renumber
                copied[position].older = Int32(older - first + position)
            }
        }
        // What follows the last and the first one's name are this text's: the caller sets them.
        let last = first + (lastOlder - older)
        nodes[last].nextSibling = -1
        return (first, last)
    }

    /// Whether older node `older`'s bytes are the ones at `index` (compared once: see `shift`).
    private mutating func isSame(_ older: Int, at index: Int) -> Bool {
        let source = olderNodes[older]
        let count = Int(source.end - source.start)
        let offset = index - Int(source.start)
        if offset == shift, index + count <= sameUntil { return true }
        // The older node holds the byte found to differ, so it is not the same.
        if offset == shift, differs, index <= sameUntil, sameUntil < index + count { return false }
        let available = min(count, bytes.count - index)
        let same = sameBytes(from: index, olderFrom: Int(source.start), count: available)
        remember(same, of: available, at: index, olderFrom: Int(source.start))
        return same == count
    }

    /// Notes what a comparison of `available` bytes at `index` with the older text's at `olderIndex` found: the
    /// first `same` agree (see `shift`).
    private mutating func remember(_ same: Int, of available: Int, at index: Int, olderFrom olderIndex: Int) {
        shift = index - olderIndex
        sameUntil = index + same
        differs = same < available
    }

    /// The older array's element to take the element at `index` from: `like`, the one at the same place, when it
    /// is the same bytes; else the first of the next ``elementSearch`` whose bytes are these, with the run of
    /// same bytes after it up to `olderEnd` (the older array's end) compared at once (the array's first elements
    /// dropped: a window that moved on, whose elements are then copied, not read); else `like`, to be read.
    private mutating func element(like: Int, at index: Int, olderEnd: Int) -> Int {
        guard index < bytes.count, !isSame(like, at: index) else { return like }
        var candidate = Int(olderNodes[like].nextSibling)
        for _ in 0..<Self.elementSearch where candidate >= 0 {
            let start = Int(olderNodes[candidate].start)
            let available = min(olderEnd - start, bytes.count - index)
            let same = sameBytes(from: index, olderFrom: start, count: available)
            if same >= Int(olderNodes[candidate].end) - start {
                remember(same, of: available, at: index, olderFrom: start)
                return candidate
            }
            candidate = Int(olderNodes[candidate].nextSibling)
        }
        return like
    }

    /// How many elements past the one at the same place an older array is searched for an element's bytes.
    static let elementSearch = 16

    /// The bytes ``sameBytes(from:olderFrom:count:)`` compares at a time before it looks for the first difference.
    static let block = 256

    /// How many of the `count` bytes from `index` are the older text's from `olderIndex`, up to the first that
    /// differs.
    private func sameBytes(from index: Int, olderFrom olderIndex: Int, count: Int) -> Int {
        let mine = UnsafeRawPointer(bytes.baseAddress! + index)
        let theirs = UnsafeRawPointer(olderBytes.baseAddress! + olderIndex)
        var same = 0
        // Blocks by `memcmp` (vectorized) while they agree, then the differing block word by word.
        while same + Self.block <= count, memcmp(mine + same, theirs + same, Self.block) == 0 { same += Self.block }
        while same + 8 <= count {
            let difference =
                mine.loadUnaligned(fromByteOffset: same, as: UInt64.self)
                ^ theirs.loadUnaligned(fromByteOffset: same, as: UInt64.self)
            if difference != 0 { return same + UInt64(littleEndian: difference).trailingZeroBitCount / 8 }
            same += 8
        }
        while same < count,
            mine.load(fromByteOffset: same, as: UInt8.self) == theirs.load(fromByteOffset: same, as: UInt8.self)
        {
            same += 1
        }
        return same
    }

    /// The older object's member named as the bytes in `name` are (the same bytes, quotes included), looked for
    /// from `next` on; when found, `next` moves past it. -1 when it is not within ``memberSearch`` members.
    private func olderMember(named name: Range<Int>, from next: inout Int) -> Int {
        var candidate = next
        for _ in 0...Self.memberSearch {
            guard candidate >= 0 else { return -1 }
            let member = olderNodes[candidate]
            let count = Int(member.nameEnd - member.nameStart)
            if count == name.count,
                memcmp(bytes.baseAddress! + name.lowerBound, olderBytes.baseAddress! + Int(member.nameStart), count)
                    == 0
            {
                next = Int(member.nextSibling)
                return candidate
            }
            candidate = Int(member.nextSibling)
        }
        return -1
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
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// What ends a number or a literal.
    private func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || Self.isWhitespace(byte)
    }
}
