/// An ordered list of header fields, stored as the wire bytes `Name: value\r\n` they are read from or written as.
///
/// Request headers are a view over the received head (no copy per field); response headers are appended
/// in wire form, so writing them is one copy. Lookups scan the lines and compare names ignoring ASCII case,
/// which for the handful of fields of a real request is cheaper than building a dictionary.
///
/// Values given to ``add(_:_:)`` are sanitised: control characters other than HTAB (CR, LF and NUL among them)
/// become spaces, so a value can never inject a field or end the head (response splitting), and stays a valid
/// field value (RFC 9110 §5.5).
public struct HTTPHeaders: Sendable {
    @usableFromInline private(set) var storage: [UInt8]
    private var start: Int
    /// Whether a field the server writes itself was added (so writing must filter it out).
    private var hasServerOwnedField = false

    /// Creates an empty list.
    public init() {
        storage = []
        start = 0
    }

    /// Creates a list from name-value pairs, in order.
    /// - Parameter fields: The fields to add.
    public init(_ fields: [(HTTPHeaderName, String)]) {
        self.init()
        for (name, value) in fields { add(name, value) }
    }

    /// A view over validated wire bytes, as the parser produces.
    init(wireBytes: [UInt8], start: Int) {
        storage = wireBytes
        self.start = start
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { storage.count == start }

    /// The first value of the field `name`, without surrounding whitespace.
    public subscript(name: HTTPHeaderName) -> String? {
        withFirstValue(of: name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Every value of the field `name`, in order.
    /// - Parameter name: The field name.
    /// - Returns: The values, one per field line (comma-separated lists are not split).
    public func values(for name: HTTPHeaderName) -> [String] {
        var result: [String] = []
        forEachField { fieldName, value in
            if name.matches(fieldName) { result.append(String(decoding: value, as: UTF8.self)) }
            return true
        }
        return result
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: HTTPHeaderName) -> Bool {
        firstValueRange(of: name) != nil
    }

    /// Appends a field.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value; control characters other than HTAB are replaced by spaces.
    public mutating func add(_ name: HTTPHeaderName, _ value: String) {
        if name.isServerOwned { hasServerOwnedField = true }
        storage.append(contentsOf: name.rawName.utf8)
        storage.append(UInt8(ascii: ":"))
        storage.append(UInt8(ascii: " "))
        var value = value
        value.withUTF8 { bytes in
            if bytes.allSatisfy(ByteClass.isFieldValue) {
                storage.append(contentsOf: bytes)
            } else {
                for byte in bytes { storage.append(ByteClass.isFieldValue(byte) ? byte : UInt8(ascii: " ")) }
            }
        }
        storage.append(0x0D)
        storage.append(0x0A)
    }

    /// Replaces every field named `name` by one field with `value`.
    public mutating func set(_ name: HTTPHeaderName, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: HTTPHeaderName) {
        guard contains(name) else { return }
        var kept = HTTPHeaders()
        for field in self where field.name.lowercased() != name.lowercased {
            kept.add(HTTPHeaderName(field.name), field.value)
        }
        self = kept
    }

    /// Calls `body` with the value bytes of the first field named `name` (no `String` is made).
    /// - Returns: What `body` returned, or nil when there is no such field.
    @inlinable
    package func withFirstValue<Result>(
        of name: HTTPHeaderName, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result? {
        // Inlined, so specialized where it is called, and the search is not generic: a `Result?` that the walk's
        // closure wrote into was boxed, and its type looked up in the runtime's metadata cache, on every call (3 % of
        // an event POST's server CPU, four calls a request).
        guard let range = firstValueRange(of: name) else { return nil }
        return storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Where the value of the first field named `name` stands in `storage`, trimmed; nil when there is none.
    @usableFromInline
    func firstValueRange(of name: HTTPHeaderName) -> Range<Int>? {
        storage.withUnsafeBytes { bytes -> Range<Int>? in
            guard let base = bytes.baseAddress else { return nil }
            var found: Range<Int>?
            Self.forEachField(in: bytes, from: start) { fieldName, value in
                guard name.matches(fieldName), let first = value.baseAddress else { return true }
                let lower = first - base
                found = lower..<(lower + value.count)
                return false
            }
            return found
        }
    }

    /// Whether a field named `name` has a value that contains `needle`, ignoring ASCII case (`needle` lower case).
    func anyValue(of name: HTTPHeaderName, containsIgnoringCase needle: StaticString) -> Bool {
        let length = needle.utf8CodeUnitCount
        var found = false
        forEachField { fieldName, value in
            guard name.matches(fieldName), value.count >= length else { return true }
            for offset in 0...(value.count - length)
            where ByteClass.equalsIgnoringCase(
                UnsafeRawBufferPointer(rebasing: value[offset..<(offset + length)]), needle)
            {
                found = true
                return false
            }
            return true
        }
        return found
    }

    /// Walks the field lines in order; `body` returns false to stop.
    func forEachField(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Bool) {
        storage.withUnsafeBytes { bytes in Self.forEachField(in: bytes, from: start, body) }
    }

    /// Walks the field lines of `bytes` from `start` in order; `body` returns false to stop.
    private static func forEachField(
        in bytes: UnsafeRawBufferPointer, from start: Int,
        _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Bool
    ) {
        var lineStart = start
        while lineStart < bytes.count {
            var colon = lineStart
            while colon < bytes.count, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
            var lineEnd = colon
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            guard colon < lineEnd else { return }
            let valueEnd = lineEnd > colon && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            let name = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<colon])
            let value = ByteClass.trimmed(UnsafeRawBufferPointer(rebasing: bytes[(colon + 1)..<valueEnd]))
            guard body(name, value) else { return }
            lineStart = lineEnd + 1
        }
    }

    /// Appends the fields of a response, leaving out the ones the server writes itself.
    func writeResponseFields(into buffer: inout [UInt8]) {
        guard hasServerOwnedField else { return write(into: &buffer) }
        for field in self where !HTTPHeaderName(field.name).isServerOwned {
            buffer.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8)
        }
    }

    /// Appends the fields in wire form to `buffer`.
    func write(into buffer: inout [UInt8]) {
        if start == 0 {
            buffer.append(contentsOf: storage)
        } else {
            buffer.append(contentsOf: storage[start...])
        }
    }
}

/// One header field as strings.
public struct HTTPField: Sendable, Hashable {
    /// The field name as received.
    public var name: String
    /// The value without surrounding whitespace.
    public var value: String
}

extension HTTPHeaders: Sequence {
    /// Iterates the fields in the order received, repeated names included, each name and value copied into a
    /// string (a lookup by name does not need these copies).
    public func makeIterator() -> IndexingIterator<[HTTPField]> {
        var fields: [HTTPField] = []
        forEachField { name, value in
            fields.append(
                HTTPField(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            return true
        }
        return fields.makeIterator()
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// Creates fields from a literal in the order written, such as `[.allow: "GET, HEAD"]`.
    public init(dictionaryLiteral elements: (HTTPHeaderName, String)...) {
        self.init(elements)
    }
}

extension HTTPHeaders: CustomStringConvertible {
    /// The fields as `Name: value` lines, for logs and test failures.
    public var description: String {
        map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
