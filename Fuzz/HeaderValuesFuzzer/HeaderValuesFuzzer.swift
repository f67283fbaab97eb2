/// libFuzzer target for the header values and query strings the server interprets: `Last-Event-ID`,
/// `If-None-Match`, `Accept-Encoding`, `Authorization`, `Cookie`, `Idempotency-Key`, `Content-Type`,
/// `Content-Encoding` and the query. Run with `Fuzz/run.sh`; built only when `VIEWHOST_FUZZ` is set.
///
/// Input layout: byte 0 picks the header (mod 9); the rest is its value, cleaned to what the request parser can
/// hand over (no CR, LF, NUL or other controls, trimmed), or for the query to request-target bytes. Each is read
/// by the very function the route uses, and a broken invariant traps (see each case).
import ViewHost
import FuzzSupport
import HTTPCore

@_cdecl("HeaderValuesFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzHeaderValues)
}

func request(_ name: HTTPHeaderName, _ value: String, target: String = "/v1/sessions/s/stream") -> HTTPRequest {
    HTTPRequest(method: .get, target: target, headers: [name: value])
}

let etag = "\"v7-0123abcd\""

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeaderValues(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let raw = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let value = fieldValue(raw)
    switch data[0] % 9 {
    case 0:
        // Last-Event-ID: 1 to 18 ASCII digits, read as sent; anything else refused (400), never guessed at.
        let digits = value.utf8
        let valid = (1...18).contains(digits.count) && digits.allSatisfy { (0x30...0x39).contains($0) }
        switch FuzzEntryPoints.lastEventID(request(.lastEventID, value)) {
        case .success(let id): check(valid && id == Int(value), "Last-Event-ID \(value) read as \(id)")
        case .failure: check(!valid, "Last-Event-ID \(value) refused")
        }
    case 1:
        // If-None-Match: `*` or the tag itself anywhere in the list matches; W/ is ignored (weak comparison).
        let matches = FuzzEntryPoints.noneMatchFails(request(.ifNoneMatch, value), etag: etag)
        check(FuzzEntryPoints.noneMatchFails(request(.ifNoneMatch, value + ", W/" + etag), etag: etag), "a listed tag missed")
        check(FuzzEntryPoints.noneMatchFails(request(.ifNoneMatch, etag + "," + value), etag: etag), "a listed tag missed")
        if value == "*" { check(matches, "* missed") }
        if !value.contains(etag.dropFirst().dropLast()) && !value.contains("*") { check(!matches, "matched \(value)") }
    case 2:
        // Accept-Encoding: a pure function; `gzip;q=0` anywhere refuses gzip; an explicit `identity` keeps
        // identity acceptable.
        let coding = ContentCodingNegotiation.preferredCoding(acceptEncoding: value)
        check(coding == ContentCodingNegotiation.preferredCoding(acceptEncoding: value), "not a pure function")
        check(ContentCodingNegotiation.preferredCoding(acceptEncoding: value + ", gzip;q=0") != .gzip, "gzip;q=0 ignored")
        check(ContentCodingNegotiation.preferredCoding(acceptEncoding: "gzip;q=0," + value) != .gzip, "gzip;q=0 ignored")
        if !value.lowercased().contains("gzip"), !value.contains("*") { check(coding != .gzip, "gzip not asked for") }
    case 3:
        // Authorization: `Bearer <token>` (any case) gives the token, trimmed, whatever the scheme's case.
        let token = FuzzEntryPoints.token(request(.authorization, value))
        if let token {
            check(!token.isEmpty || value.lowercased().hasPrefix("bearer"), "an empty token from \(value)")
            check(token.utf8.first != 0x20 && token.utf8.last != 0x20, "an untrimmed token")
        }
        let bearer = "Bearer " + value
        let read = FuzzEntryPoints.token(request(.authorization, bearer))
        // Bytes, not Characters: `" \u{656}"` is one Character that holds a space.
        if !value.isEmpty, !value.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 }) {
            check(read == value, "Bearer \(value) read as \(String(describing: read))")
        }
        let lower = FuzzEntryPoints.token(request(.authorization, "bEARER " + value))
        check(lower == read, "the scheme's case changed the token")
    case 4:
        // Cookie: session s's own `viewhost_session_s` pair, else the single `viewhost_session` of earlier
        // releases, trimmed; a later one never overrides an earlier one, and the own one always wins.
        let token = FuzzEntryPoints.token(request(.cookie, value))
        if let token { check(!token.contains(";"), "a token with ';'") }
        let withOurs = FuzzEntryPoints.token(request(.cookie, "viewhost_session_s=abc; " + value))
        check(withOurs == "abc", "the first session cookie lost to \(value)")
        let withLegacy = FuzzEntryPoints.token(request(.cookie, "viewhost_session=abc; " + value))
        check(withLegacy == "abc" || value.contains("viewhost_session_s"), "the first legacy cookie lost to \(value)")
    case 5:
        // Idempotency-Key: 1 to 255 visible ASCII characters, kept as sent; anything else a 400.
        switch FuzzEntryPoints.idempotencyKey(request(.idempotencyKey, value)) {
        case .success(let key):
            check(key == value, "the key changed")
            check((1...255).contains(value.utf8.count) && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "bad key kept")
        case .failure(let refusal):
            check(refusal.status == 400, "a key refused with \(refusal.status)")
        }
    case 6:
        // The query: `features` as the stream route reads it, percent- and plus-decoded.
        let query = String(decoding: raw.filter { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }, as: UTF8.self)
        let parsed = request(.accept, "*/*", target: "/v1/sessions/s/stream?" + query)
        if let features = parsed.queryValue("features") {
            check(features.unicodeScalars.allSatisfy { $0 != "+" || query.contains("%2B") || query.contains("%2b") }, "+ kept")
        }
        let first = request(.accept, "*/*", target: "/v1/sessions/s/stream?features=chat%2Cweather&" + query)
        check(first.queryValue("features") == "chat,weather", "the first features parameter lost")
        _ = PercentDecoding.decode(query, plusAsSpace: true)
    case 7:
        // Content-Type: the fast path (exactly application/json) and the general one agree.
        let isJSON = FuzzEntryPoints.isJSON(request(.contentType, value))
        if value.lowercased() == "application/json" { check(isJSON, "\(value) is JSON") }
        if !value.lowercased().contains("json") { check(!isJSON, "\(value) is not JSON") }
    default:
        // Content-Encoding: identity or none passes the body through; anything but gzip is refused as a 415.
        let body: [UInt8] = [1, 2, 3]
        let decoded = Result { () throws(CompressionError) in
            try RequestBodyDecoding.decode(contentEncoding: value, body: body, limit: 16)
        }
        switch decoded {
        case .success(let bytes): check(bytes == body && ["", "identity"].contains(value.lowercased()), "decoded \(value)")
        case .failure(.unsupportedCoding): check(!["gzip", "x-gzip"].contains(value.lowercased()), "gzip refused")
        case .failure: check(["gzip", "x-gzip"].contains(value.lowercased()), "\(value) tried as gzip")
        }
    }
    return 0
}
