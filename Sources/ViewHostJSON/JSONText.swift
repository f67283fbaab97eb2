/// A JSON text read for the byte ranges of its parts, without making values of them: what ``JSONPatch`` compares
/// (two canonical texts' equal parts are equal bytes) before it parses only the parts that changed.
struct JSONText {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ reason: String, at offset: Int) -> JSONParser.Failure {
        JSONParser.Failure(reason: reason, offset: offset)
    }

    /// The range of the one value the text holds (surrounding whitespace excluded).
    func root() throws(JSONParser.Failure) -> Range<Int> {
        let start = skipWhitespace(from: 0)
        guard start < bytes.count else { throw failure("unexpected end of input", at: start) }
        let end = try end(ofValueAt: start)
        guard skipWhitespace(from: end) == bytes.count else { throw failure("unexpected data after the JSON value", at: end) }
        return start..<end
    }

    /// The value in `range`, parsed.
    func value(_ range: Range<Int>) throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(Array(bytes[range]), maxDepth: 512)
    }

    /// The members of the object in `range`: each name and its value's range.
    func members(of range: Range<Int>) throws(JSONParser.Failure) -> [(name: String, range: Range<Int>)] {
        var members: [(name: String, range: Range<Int>)] = []
        var index = skipWhitespace(from: range.lowerBound + 1)
        if index < range.upperBound, bytes[index] == UInt8(ascii: "}") { return members }
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a member name", at: index) }
            let nameEnd = try end(ofStringAt: index)
            let name = try self.name(index..<nameEnd)
            index = skipWhitespace(from: nameEnd)
            guard index < range.upperBound, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'", at: index) }
            let valueStart = skipWhitespace(from: index + 1)
            let valueEnd = try end(ofValueAt: valueStart)
            members.append((name, valueStart..<valueEnd))
            index = skipWhitespace(from: valueEnd)
            guard index < range.upperBound else { break }
            if bytes[index] == UInt8(ascii: "}") { return members }
            guard bytes[index] == UInt8(ascii: ",") else { throw failure("expected ',' or '}'", at: index) }
            index = skipWhitespace(from: index + 1)
        }
        throw failure("unexpected end of input", at: index)
    }

    /// The ranges of the elements of the array in `range`.
    func elements(of range: Range<Int>) throws(JSONParser.Failure) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        var index = skipWhitespace(from: range.lowerBound + 1)
        if index < range.upperBound, bytes[index] == UInt8(ascii: "]") { return elements }
        while index < range.upperBound {
            let end = try end(ofValueAt: index)
            elements.append(index..<end)
            index = skipWhitespace(from: end)
            guard index < range.upperBound else { break }
            if bytes[index] == UInt8(ascii: "]") { return elements }
            guard bytes[index] == UInt8(ascii: ",") else { throw failure("expected ',' or ']'", at: index) }
            index = skipWhitespace(from: index + 1)
        }
        throw failure("unexpected end of input", at: index)
    }

    /// Where the value starting at `start` ends (one past its last byte).
    func end(ofValueAt start: Int) throws(JSONParser.Failure) -> Int {
        guard start < bytes.count else { throw failure("unexpected end of input", at: start) }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return try end(ofStringAt: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = try end(ofStringAt: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            throw failure("unexpected end of input", at: index)
        default:
            // A number or a literal: up to the next delimiter (its exact form is checked when it is parsed).
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return index
        }
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
        throw failure("unterminated string", at: start)
    }

    /// A member name's text (its range includes the quotes).
    private func name(_ range: Range<Int>) throws(JSONParser.Failure) -> String {
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        guard case .string(let text) = try value(range) else { throw failure("expected a member name", at: range.lowerBound) }
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
