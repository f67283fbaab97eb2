extension StringProtocol {
    /// The text without the spaces and tabs (OWS, RFC 9110 §5.6.3) around it, for header values and list items.
    /// Works on the UTF-8 bytes: no Foundation, no grapheme breaking.
    public func trimmingOWS() -> Substring {
        let whole = Substring(self)
        let bytes = whole.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
            start = bytes.index(after: start)
        }
        while end > start {
            let before = bytes.index(before: end)
            guard bytes[before] == UInt8(ascii: " ") || bytes[before] == UInt8(ascii: "\t") else { break }
            end = before
        }
        return whole[start..<end]
    }
}

extension StringProtocol {
    /// The parts of a header value between `separator` bytes (`,` in lists, `;` in parameters and cookies).
    ///
    /// Splits the UTF-8 bytes, not Characters: a combining mark right after a comma makes `,◌́` one Character, so a
    /// Character split did not see that comma (the header fuzzer found `If-None-Match: "v7",\u{6D6}…` missing its
    /// listed tag).
    public func fieldParts(separatedBy separator: UInt8, omittingEmpty: Bool = true) -> [Substring] {
        let whole = Substring(self)
        return whole.utf8.split(separator: separator, omittingEmptySubsequences: omittingEmpty).map { Substring($0) }
    }
}
