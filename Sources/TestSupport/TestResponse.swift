import Foundation

/// A response as a test client parsed it.
public struct TestResponse: Sendable, CustomStringConvertible {
    /// The status code.
    public var status: Int
    /// The reason phrase of the status line.
    public var reason: String
    /// The header fields in the order received, names as sent.
    public var headers: [(name: String, value: String)]
    /// The content, de-chunked when it came chunked.
    public var body: [UInt8]

    /// The first value of header `name`, ignoring case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of header `name`, ignoring case.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The status line, the fields and the body as text, for a test's failure message.
    public var description: String { "\(status) \(reason) \(headers.map { "\($0.name): \($0.value)" }) \(text)" }

    /// Parses one response from the front of `bytes`; nil when more bytes are needed.
    /// - Parameters:
    ///   - bytes: Received bytes.
    ///   - complete: Whether the connection ended (a close-delimited body is then complete).
    ///   - headRequest: Whether no body follows whatever the headers say.
    /// - Returns: The response and the bytes it used.
    /// - Throws: ``HTTPTestClient/ClientError/malformedResponse(_:)`` for bytes that are not a response.
    public static func parse(_ bytes: [UInt8], complete: Bool, headRequest: Bool = false) throws -> (TestResponse, Int)?
    {
        guard let headEnd = find([13, 10, 13, 10], in: bytes, from: 0) else { return nil }
        let head = String(decoding: bytes[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw HTTPTestClient.ClientError.malformedResponse(statusLine)
        }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw HTTPTestClient.ClientError.malformedResponse(line)
            }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = TestResponse(
            status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: [])
        let bodyStart = headEnd + 4
        if headRequest || status < 200 || status == 204 || status == 304 {
            return (response, bodyStart)
        }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            guard let (body, used) = try decodeChunked(bytes, from: bodyStart) else { return nil }
            response.body = body
            return (response, used)
        }
        if let lengthText = response.header("Content-Length"), let length = Int(lengthText) {
            guard bytes.count - bodyStart >= length else { return nil }
            response.body = Array(bytes[bodyStart..<(bodyStart + length)])
            return (response, bodyStart + length)
        }
        guard complete else { return nil }
        response.body = Array(bytes[bodyStart...])
        return (response, bytes.count)
    }

    private static func decodeChunked(_ bytes: [UInt8], from start: Int) throws -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var index = start
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else { return nil }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else {
                throw HTTPTestClient.ClientError.malformedResponse("chunk size \(sizeText)")
            }
            index = lineEnd + 2
            if size == 0 {
                guard let trailerEnd = find([13, 10], in: bytes, from: index) else { return nil }
                return (body, trailerEnd + 2)
            }
            guard bytes.count >= index + size + 2 else { return nil }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size + 2
        }
    }

    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count) where bytes[index] == pattern[0] {
            if Array(bytes[index..<(index + pattern.count)]) == pattern { return index }
        }
        return nil
    }
}
