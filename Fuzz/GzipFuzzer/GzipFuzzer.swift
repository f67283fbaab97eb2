/// libFuzzer target for the gzip request inflater (`GzipInflater`, `Gzip.decompress`, `RequestBodyDecoding`).
/// Run with `Fuzz/run.sh`; built only when `VIEWHOST_FUZZ` is set.
///
/// Input layout: byte 0 picks the output limit (bits 0–1), how the data is cut into chunks (bits 2–3) and whether
/// the rest is taken as gzip data as is (bit 4 clear) or is first compressed, then damaged at a few places picked
/// by byte 1 (bit 4 set: deep paths of zlib that raw bytes rarely reach). A broken invariant traps:
/// * streaming the data in chunks and decompressing it at once agree: the same bytes, or both refuse;
/// * no output ever passes the limit, and `Content-Encoding: gzip` decodes exactly as `Gzip.decompress`;
/// * anything compressed comes back unchanged, and is refused one byte under its size.
import FuzzSupport
import HTTPCore

@_cdecl("GzipFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzGzip)
}

let limits = [0, 64, 4096, 1 << 20]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let limit = limits[Int(data[0] & 3)]
    let payload = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    var gzip = payload
    if data[0] & 0x10 != 0 {
        let compressed = Gzip.compress(payload, level: Int32(data[1] % 10))
        // The whole trip back first: what was compressed inflates to itself, and not one byte under its size.
        check((try? Gzip.decompress(compressed, limit: payload.count)) == payload, "a round trip changed the data")
        if !payload.isEmpty {
            do {
                _ = try Gzip.decompress(compressed, limit: payload.count - 1)
                fatalError("inflated past the limit")
            } catch {
                check(error == .tooLarge(limit: payload.count - 1), "not refused as too large: \(error)")
            }
        }
        gzip = damaged(compressed, seed: data[1])
    }

    let whole = Result { () throws(CompressionError) in try Gzip.decompress(gzip, limit: limit) }
    let streamed = Result { () throws(CompressionError) in try stream(gzip, limit: limit, mode: Int(data[0] >> 2), seed: data[1]) }
    switch (whole, streamed) {
    case (.success(let a), .success(let b)):
        check(a == b, "streaming and whole decompression give different bytes")
        check(a.count <= limit, "output past the limit")
    case (.failure(let a), .failure(let b)):
        // Which of "too large" and "corrupt" comes first may depend on where chunks end.
        if case .tooLarge = a {} else if case .tooLarge = b {} else {
            check(isSameKind(a, b), "different refusals: \(a) vs \(b)")
        }
    default:
        fatalError("streaming and whole decompression disagree: \(whole) vs \(streamed)")
    }
    let decoded = Result { () throws(CompressionError) in
        try RequestBodyDecoding.decode(contentEncoding: data[1] & 1 == 0 ? "gzip" : "X-GZIP", body: gzip, limit: limit)
    }
    check(decoded == whole, "Content-Encoding: gzip decodes otherwise than Gzip.decompress")
    return 0
}

func isSameKind(_ a: CompressionError, _ b: CompressionError) -> Bool {
    switch (a, b) {
    case (.corrupt, .corrupt), (.zlib, .zlib), (.tooLarge, .tooLarge), (.unsupportedCoding, .unsupportedCoding): true
    default: false
    }
}

/// Inflates `bytes` fed in chunks, as a request body arrives.
func stream(_ bytes: [UInt8], limit: Int, mode: Int, seed: UInt8) throws(CompressionError) -> [UInt8] {
    let inflater = try GzipInflater(limit: limit)
    var output: [UInt8] = []
    for chunk in ReadCutter.cut(bytes, mode: mode, seed: seed) {
        output += try inflater.inflate(chunk)
        check(inflater.inflatedCount == output.count && output.count <= limit, "output past the limit")
    }
    try inflater.finish()
    return output
}

/// `bytes` with up to three bytes changed, truncated or extended, as picked by `seed`.
func damaged(_ bytes: [UInt8], seed: UInt8) -> [UInt8] {
    var copy = bytes
    var random = UInt32(seed) &* 2_246_822_519 | 1
    func next(_ bound: Int) -> Int {
        random ^= random << 13
        random ^= random >> 17
        random ^= random << 5
        return Int(random % UInt32(max(bound, 1)))
    }
    switch seed >> 6 {
    case 0: break  // intact: a valid stream, possibly followed by a second member
    case 1: copy.removeLast(next(copy.count))
    case 2: copy += bytes  // two members
    default:
        for _ in 0..<(1 + next(3)) { copy[next(copy.count)] ^= UInt8(truncatingIfNeeded: 1 << next(8)) }
    }
    return copy
}
