/// Decodes a chunked body (RFC 9112 §7.1) incrementally: chunk sizes, extensions (checked, then ignored), data,
/// and the trailer section, which is validated like a header section and kept.
struct ChunkedBodyDecoder {
    private enum State {
        case size
        case sizeWhitespace
        case chunkExtension
        case sizeLineFeed
        case data(remaining: Int)
        case dataCarriageReturn
        case dataLineFeed
        case trailerLine
        case trailerLineFeed
    }

    private static let maxSizeDigits = 15
    private static let maxExtensionBytes = 4096

    private var state = State.size
    private var size = 0
    private var sizeDigits = 0
    private var extensionBytes = 0
    private var trailerLine: [UInt8] = []
    private var trailerBytes: [UInt8] = []
    private var trailerCount = 0

    /// The trailer fields, once decoding finished.
    var trailers: HTTPHeaders { HTTPHeaders(wireBytes: trailerBytes, start: 0) }

    /// Decodes from the start of `buffer`, appending data to `body`.
    /// - Returns: The bytes consumed, and whether the body (with its trailers) is complete.
    mutating func decode(
        _ buffer: UnsafeRawBufferPointer, into body: inout [UInt8], limits: HTTPLimits
    ) throws(HTTPParserError) -> (consumed: Int, finished: Bool) {
        var index = 0
        while index < buffer.count {
            let byte = buffer[index]
            switch state {
            case .size:
                if let digit = Self.hexValue(byte) {
                    sizeDigits += 1
                    guard sizeDigits <= Self.maxSizeDigits else { throw .invalidChunk }
                    size = size << 4 | digit
                    guard body.count + size <= limits.maxBodyBytes else { throw .bodyTooLarge }
                } else {
                    guard sizeDigits > 0 else { throw .invalidChunk }
                    try endOfSize(byte)
                }
            case .sizeWhitespace:
                try endOfSize(byte)
            case .chunkExtension:
                if byte == 0x0D {
                    state = .sizeLineFeed
                } else {
                    extensionBytes += 1
                    guard ByteClass.isFieldValue(byte), extensionBytes <= Self.maxExtensionBytes else {
                        throw .invalidChunk
                    }
                }
            case .sizeLineFeed:
                guard byte == 0x0A else { throw .invalidChunk }
                state = size == 0 ? .trailerLine : .data(remaining: size)
            case .data(let remaining):
                let count = min(remaining, buffer.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index..<(index + count)]))
                index += count
                state = count == remaining ? .dataCarriageReturn : .data(remaining: remaining - count)
                continue
            case .dataCarriageReturn:
                guard byte == 0x0D else { throw .invalidChunk }
                state = .dataLineFeed
            case .dataLineFeed:
                guard byte == 0x0A else { throw .invalidChunk }
                state = .size
                size = 0
                sizeDigits = 0
                extensionBytes = 0
            case .trailerLine:
                if byte == 0x0D {
                    state = .trailerLineFeed
                } else {
                    trailerLine.append(byte)
                    guard trailerBytes.count + trailerLine.count <= limits.maxHeaderBytes else {
                        throw .headerSectionTooLarge
                    }
                }
            case .trailerLineFeed:
                guard byte == 0x0A else { throw .invalidLineEnding }
                if trailerLine.isEmpty { return (index + 1, true) }
                try acceptTrailerLine(limits: limits)
                state = .trailerLine
            }
            index += 1
        }
        return (index, false)
    }

    /// After the size digits: optional whitespace (BWS), then `;` for an extension or CR.
    private mutating func endOfSize(_ byte: UInt8) throws(HTTPParserError) {
        switch byte {
        case 0x0D: state = .sizeLineFeed
        case UInt8(ascii: ";"): state = .chunkExtension
        case 0x20, 0x09: state = .sizeWhitespace
        default: throw .invalidChunk
        }
    }

    private mutating func acceptTrailerLine(limits: HTTPLimits) throws(HTTPParserError) {
        let validation = trailerLine.withUnsafeBytes { line in
            Result { () throws(HTTPParserError) in _ = try FieldLine.validate(line) }
        }
        try validation.get()
        trailerCount += 1
        guard trailerCount <= limits.maxHeaderCount else { throw .tooManyHeaderFields }
        trailerBytes.append(contentsOf: trailerLine)
        trailerBytes.append(0x0D)
        trailerBytes.append(0x0A)
        trailerLine.removeAll(keepingCapacity: true)
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
