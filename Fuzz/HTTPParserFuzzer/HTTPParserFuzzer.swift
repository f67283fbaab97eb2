/// libFuzzer entry point for `HTTPRequestParser` (run it with `Fuzz/run.sh`; built only when `VIEWHOST_FUZZ` is set).
///
/// Input layout: byte 0 picks the limits (bits 0–1) and how the rest is cut into reads (bits 2–3), byte 1 seeds
/// the cut points; the remaining bytes are what a client sent. The bytes are fed as a connection feeds them,
/// and once more in a single read. A broken invariant traps, which libFuzzer reports as a crash:
/// * a call never consumes more than it was given, and consuming nothing means `.needMoreData`;
/// * where reads end changes nothing: the same requests, and an error exactly when one read gives one;
/// * a parsed request has token field names, values free of CR, LF and NUL, a body within the limit and of
///   its declared length, and never both Content-Length and Transfer-Encoding.
import HTTPCore

/// The program's `main`. SwiftPM links an executable with `main` renamed from `<module>_main`, so libFuzzer's own
/// `main` cannot be used; this hands the command line to libFuzzer's driver instead.
@_cdecl("HTTPParserFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&argc, &argv, fuzzHTTPRequestParser)
}

/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))` of libFuzzer.
@_extern(c, "LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs one input (libFuzzer's callback, also exported under its conventional name); traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let limits = FuzzInput.limits[Int(data[0] & 0x3)]
    let input = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let reads = FuzzInput.cut(input, mode: Int(data[0] >> 2 & 0x3), seed: data[1])

    let split = FeedResult(reads: reads, limits: limits)
    let whole = FeedResult(reads: [input], limits: limits)
    check(
        split.requests == whole.requests,
        "the requests depend on where reads end: \(split.requests.count) vs \(whole.requests.count) requests")
    check(
        (split.error == nil) == (whole.error == nil),
        "an error depends on where reads end: \(String(describing: split.error)) vs \(String(describing: whole.error))")
    if let splitError = split.error, let wholeError = whole.error, splitError != wholeError {
        // A size limit may be crossed inside a line before the fault later in that line is seen.
        let sizeLimits: Set<HTTPParserError> = [.requestLineTooLong, .headerSectionTooLarge]
        check(
            sizeLimits.contains(splitError) || sizeLimits.contains(wholeError),
            "the error depends on where reads end: \(splitError) vs \(wholeError)")
    }
    return 0
}

/// How the fuzzer turns its input into limits and reads.
enum FuzzInput {
    static let limits = [
        HTTPLimits(),
        HTTPLimits(maxRequestLineBytes: 24, maxHeaderBytes: 48, maxHeaderCount: 3, maxBodyBytes: 16),
        HTTPLimits(maxRequestLineBytes: 64, maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 64),
        HTTPLimits(maxRequestLineBytes: 1, maxHeaderBytes: 0, maxHeaderCount: 0, maxBodyBytes: 0),
    ]

    /// Cuts `bytes` into reads: one byte each, pieces of 1–8 or 1–64 bytes, or two pieces.
    static func cut(_ bytes: [UInt8], mode: Int, seed: UInt8) -> [[UInt8]] {
        var random = UInt32(seed) &* 2_654_435_761 | 1
        func next(_ bound: Int) -> Int {
            random ^= random << 13
            random ^= random >> 17
            random ^= random << 5
            return Int(random % UInt32(bound))
        }
        if mode == 3 {
            let point = bytes.isEmpty ? 0 : next(bytes.count + 1)
            return [Array(bytes[..<point]), Array(bytes[point...])]
        }
        let largest = [1, 8, 64][mode]
        var reads: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + next(largest))
            reads.append(Array(bytes[start..<end]))
            start = end
        }
        return reads
    }
}

/// What feeding reads through a parser, as a connection does, gave.
struct FeedResult {
    /// The observable parts of one parsed request.
    struct Summary: Equatable {
        var parts: [String]
        var body: [UInt8]
    }

    var requests: [Summary] = []
    var error: HTTPParserError?

    init(reads: [[UInt8]], limits: HTTPLimits) {
        var parser = HTTPRequestParser(limits: limits)
        var pending: [UInt8] = []
        for read in reads {
            pending.append(contentsOf: read)
            var offset = 0
            while offset < pending.count {
                let attempt = pending.withUnsafeBytes { bytes in
                    Result { () throws(HTTPParserError) in
                        try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                    }
                }
                guard case .success(let (event, consumed)) = attempt else {
                    if case .failure(let failure) = attempt { error = failure }
                    return
                }
                check((0...(pending.count - offset)).contains(consumed), "consumed more than it was given")
                offset += consumed
                if case .request(let request) = event {
                    requests.append(Self.checked(request, limits: limits))
                } else if consumed == 0 {
                    guard case .needMoreData = event else { fatalError("an event without progress") }
                    break
                }
            }
            pending.removeFirst(offset)
        }
    }

    /// Checks what a handler may rely on, and returns every observable part of `request`.
    private static func checked(_ request: HTTPRequest, limits: HTTPLimits) -> Summary {
        check(request.body.count <= limits.maxBodyBytes, "a body over the limit")
        let hasLength = request.headers.contains(.contentLength)
        let hasCoding = request.headers.contains(.transferEncoding)
        check(!(hasLength && hasCoding), "Content-Length with Transfer-Encoding")
        if let value = request.headers[.contentLength] {
            // The first non-empty element of the list (RFC 9110 §5.6.1): `, ,2` declares 2.
            let elements = value.split(separator: ",").map { $0.filter { $0 != " " && $0 != "\t" } }
            let declared = elements.first { !$0.isEmpty }.flatMap { Int(String($0)) }
            check(declared == request.body.count, "a body of another length than declared")
        }
        var parts = [
            request.method.rawValue, request.version.description, request.target, request.path, request.query ?? "-",
            request.queryValue("a") ?? "-", String(request.keepAlive),
        ]
        for (section, fields) in [("h", request.headers), ("t", request.trailers)] {
            for field in fields {
                check(!field.name.isEmpty && field.name.utf8.allSatisfy(isToken), "a field name that is not a token")
                check(!field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "CR, LF or NUL in a value")
                parts.append("\(section) \(field.name): \(field.value)")
            }
        }
        return Summary(parts: parts, body: request.body)
    }

    private static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// Traps with `message` when `condition` is false; unlike `precondition`, it keeps the message in release builds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
