/// An upstream answer's head, read from its bytes: the status, the fields to pass on (those that describe the
/// connection or the framing, and those the server writes itself, left out), and what frames its body.
struct UpstreamHead {
    var status: HTTPStatus
    var headers: HTTPHeaders
    /// `Transfer-Encoding: chunked`.
    var chunked = false
    /// `Content-Length`, when there is one.
    var length: Int?
    /// `Connection: close`, or HTTP/1.0: the connection carries nothing more.
    var closes = false

    /// Fields never passed on from an upstream's answer (or to it, from a request): they describe one connection
    /// (RFC 9110 §7.6.1), the body's framing, or what each server writes for itself.
    static let dropped: [StaticString] = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "content-length", "expect", "date", "x-request-id",
    ]

    /// Whether a field named `name` is one of ``dropped``.
    static func isDropped(_ name: UnsafeRawBufferPointer) -> Bool {
        dropped.contains { ByteClass.equalsIgnoringCase(name, $0) }
    }

    /// Reads `bytes`, a head up to (not including) its empty line.
    /// - Returns: nil when the status line is malformed.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let statusEnd = bytes.firstIndex(of: 0x0A) else { return nil }
        let line = UnsafeRawBufferPointer(rebasing: bytes[..<statusEnd])
        // "HTTP/1.x NNN reason"
        guard line.count >= 12, line.starts(with: "HTTP/1.".utf8), line[8] == UInt8(ascii: " ") else { return nil }
        var code = 0
        for index in 9..<12 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[index]) else { return nil }
            code = code * 10 + Int(line[index] - UInt8(ascii: "0"))
        }
        guard (100...599).contains(code), line.count == 12 || line[12] == UInt8(ascii: " ") || line[12] == 0x0D
        else { return nil }
        var reasonEnd = line.count
        if reasonEnd > 13, line[reasonEnd - 1] == 0x0D { reasonEnd -= 1 }
        let reason = line.count > 13 ? String(decoding: line[13..<reasonEnd], as: UTF8.self) : ""
        status = HTTPStatus(code: code, reasonPhrase: reason)
        closes = line[7] == UInt8(ascii: "0")
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count - statusEnd)
        var lineStart = statusEnd + 1
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let fieldLine = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            lineStart = lineEnd + 1
            guard let colon = fieldLine.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = UnsafeRawBufferPointer(rebasing: fieldLine[..<colon])
            var valueEnd = fieldLine.count
            if valueEnd > colon + 1, fieldLine[valueEnd - 1] == 0x0D { valueEnd -= 1 }
            let value = ByteClass.trimmed(UnsafeRawBufferPointer(rebasing: fieldLine[(colon + 1)..<valueEnd]))
            if ByteClass.equalsIgnoringCase(name, "transfer-encoding") {
                chunked = Self.contains(value, "chunked")
            } else if ByteClass.equalsIgnoringCase(name, "content-length") {
                length = Int(String(decoding: value, as: UTF8.self))
            } else if ByteClass.equalsIgnoringCase(name, "connection"), Self.contains(value, "close") {
                closes = true
            }
            guard !Self.isDropped(name), name.allSatisfy(ByteClass.isToken), value.allSatisfy(ByteClass.isFieldValue)
            else { continue }
            kept.append(contentsOf: name)
            kept.append(contentsOf: ": ".utf8)
            kept.append(contentsOf: value)
            kept.append(contentsOf: "\r\n".utf8)
        }
        headers = HTTPHeaders(wireBytes: kept, start: 0)
    }

    /// Whether `value` contains `needle` (lower case), ignoring ASCII case.
    private static func contains(_ value: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
        let length = needle.utf8CodeUnitCount
        guard value.count >= length else { return false }
        return (0...(value.count - length)).contains { offset in
            ByteClass.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: value[offset..<(offset + length)]), needle)
        }
    }
}
