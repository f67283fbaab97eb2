/// libFuzzer target for the chunked body decoder (RFC 9112 §7.1), through the request parser as a connection
/// drives it. Run with `Fuzz/run.sh`; built only when `VIEWHOST_FUZZ` is set.
///
/// Input layout: byte 0 picks the limits (bit 0) and how the rest is cut into reads (bits 1–2), byte 1 seeds the
/// cut points; the remaining bytes follow a fixed `Transfer-Encoding: chunked` head. The parser's answer is
/// compared with a small reference decoder written from the RFC's grammar:
/// * a decoded body is exactly the reference's body, whatever the read boundaries;
/// * malformed sizes, extensions or chunk terminators are refused (`invalidChunk`), and only they are;
/// * `bodyTooLarge` only when the declared sizes pass the limit.
import FuzzSupport
import HTTPCore

@_cdecl("ChunkedBodyFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzChunkedBody)
}

let head = Array("POST /c HTTP/1.1\r\nHost: f\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
let limits = [
    HTTPLimits(),
    HTTPLimits(maxRequestLineBytes: 64, maxHeaderBytes: 96, maxHeaderCount: 2, maxBodyBytes: 64),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkedBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let limit = limits[Int(data[0] & 1)]
    let body = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let reads = ReadCutter.cut(head + body, mode: Int(data[0] >> 1 & 3), seed: data[1])
    let split = parse(reads, limits: limit)
    let whole = parse([head + body], limits: limit)
    check(split == whole, "the outcome depends on where reads end: \(split) vs \(whole)")

    let reference = Reference(body)
    switch whole {
    case .request(let decoded):
        guard case .body(let expected, let declared) = reference.outcome else {
            fatalError("decoded a body the reference refuses: \(reference.outcome)")
        }
        check(decoded == expected, "decoded \(decoded.count) bytes, the reference \(expected.count)")
        check(declared <= limit.maxBodyBytes, "accepted a body over the limit")
    case .failure(.bodyTooLarge):
        check(reference.maxDeclared > limit.maxBodyBytes, "bodyTooLarge within the limit")
    case .failure(.invalidChunk):
        guard case .invalid = reference.outcome else { fatalError("invalidChunk, the reference: \(reference.outcome)") }
    case .failure(let error):
        // Anything else can only come from the trailer section.
        guard case .body = reference.outcome else { fatalError("\(error), the reference: \(reference.outcome)") }
    case .incomplete:
        switch reference.outcome {
        case .incomplete, .body: break
        case .invalid: fatalError("a malformed body went unnoticed")
        }
    }
    if case .invalid = reference.outcome, reference.maxDeclared <= limit.maxBodyBytes {
        check(whole == .failure(.invalidChunk), "a malformed body was not refused: \(whole)")
    }
    return 0
}

enum Outcome: Equatable {
    case request([UInt8])
    case failure(HTTPParserError)
    case incomplete
}

/// Feeds `reads` through a parser as a connection does, up to the first request.
func parse(_ reads: [[UInt8]], limits: HTTPLimits) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var pending: [UInt8] = []
    for read in reads {
        pending.append(contentsOf: read)
        var offset = 0
        feeding: while offset < pending.count {
            let attempt = pending.withUnsafeBytes { bytes in
                Result { () throws(HTTPParserError) in
                    try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                }
            }
            switch attempt {
            case .failure(let error): return .failure(error)
            case .success(let (event, consumed)):
                check((0...(pending.count - offset)).contains(consumed), "consumed more than it was given")
                offset += consumed
                if case .request(let request) = event { return .request(request.body) }
                if consumed == 0 { break feeding }
            }
        }
        pending.removeFirst(offset)
    }
    return .incomplete
}

/// The chunked grammar, read the plain way:
/// `*( 1*15HEXDIG *WSP [ ";" ext ] CRLF data CRLF ) 1*15"0" *WSP [ ";" ext ] CRLF trailers`,
/// where `ext` is at most 4096 field-value bytes. The trailer section is not checked here.
struct Reference {
    enum Result: Equatable {
        /// The body, and the total of the declared sizes.
        case body([UInt8], declared: Int)
        case invalid
        case incomplete
    }

    var outcome: Result = .incomplete
    /// The largest running total of declared sizes seen (for `bodyTooLarge`).
    var maxDeclared = 0

    init(_ bytes: [UInt8]) {
        var index = 0
        var body: [UInt8] = []
        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }
        while true {
            // Size.
            var size = 0
            var digits = 0
            while let byte = peek(), let digit = Self.hex(byte) {
                digits += 1
                if digits > 15 { outcome = .invalid; return }
                size = size << 4 | digit
                maxDeclared = max(maxDeclared, body.count + size)
                index += 1
            }
            guard peek() != nil else { return }
            if digits == 0 { outcome = .invalid; return }
            while let byte = peek(), byte == 0x20 || byte == 0x09 { index += 1 }
            guard let next = peek() else { return }
            if next == UInt8(ascii: ";") {
                index += 1
                var extensionBytes = 0
                while let byte = peek(), byte != 0x0D {
                    extensionBytes += 1
                    let isFieldValue = byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
                    if !isFieldValue || extensionBytes > 4096 { outcome = .invalid; return }
                    index += 1
                }
            }
            guard let carriageReturn = peek() else { return }
            guard carriageReturn == 0x0D else { outcome = .invalid; return }
            index += 1
            guard let lineFeed = peek() else { return }
            guard lineFeed == 0x0A else { outcome = .invalid; return }
            index += 1
            if size == 0 {
                outcome = .body(body, declared: body.count)
                return
            }
            // Data and its CRLF.
            let available = min(size, bytes.count - index)
            body.append(contentsOf: bytes[index..<(index + available)])
            index += available
            guard available == size else { return }
            guard let dataCR = peek() else { return }
            guard dataCR == 0x0D else { outcome = .invalid; return }
            index += 1
            guard let dataLF = peek() else { return }
            guard dataLF == 0x0A else { outcome = .invalid; return }
            index += 1
        }
    }

    private static func hex(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
