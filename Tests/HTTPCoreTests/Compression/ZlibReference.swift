import CZlib
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// zlib's own decoders, as an oracle independent of `GzipInflater`.
enum ZlibReference {
    /// Gunzips `bytes` with zlib's gzip file reader (`gzopen`/`gzread`), a code path apart from `inflate` on a
    /// `z_stream` that we drive. Fails the test if the file is not gzip, is truncated or has a bad trailer.
    static func gunzip(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let path = try temporaryFile(bytes, sourceLocation: sourceLocation)
        defer { unlink(path) }
        let file = try #require(gzopen(path, "rb"), sourceLocation: sourceLocation)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            try #require(count >= 0, "gzread: \(message(file))", sourceLocation: sourceLocation)
            if count == 0 { break }
            output += buffer[..<Int(count)]
        }
        // gzread copies a file that is not gzip as it is; the oracle must only accept gzip.
        #expect(gzdirect(file) == 0, "not gzip data", sourceLocation: sourceLocation)
        let closed = gzclose_r(file)
        try #require(closed == Z_OK, "gzclose_r returned \(closed)", sourceLocation: sourceLocation)
        return output
    }

    /// Gzips `bytes` with zlib's gzip file writer (`gzopen`/`gzwrite`), a producer independent of `GzipDeflater`.
    static func gzip(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let path = try temporaryFile([], sourceLocation: sourceLocation)
        defer { unlink(path) }
        let file = try #require(gzopen(path, "wb"), sourceLocation: sourceLocation)
        let written = bytes.withUnsafeBytes { gzwrite(file, $0.baseAddress, UInt32($0.count)) }
        try #require(gzclose_w(file) == Z_OK, sourceLocation: sourceLocation)
        try #require(Int(written) == bytes.count, "gzwrite wrote \(written)", sourceLocation: sourceLocation)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            try #require(count >= 0, "read failed", sourceLocation: sourceLocation)
            if count == 0 { break }
            output += buffer[..<count]
        }
        return output
    }

    /// Inflates the gzip bytes sent so far with a plain `z_stream` and `Z_SYNC_FLUSH`, as a client does when it
    /// decodes a stream as it arrives.
    /// - Returns: Everything those bytes decode to, and zlib's last status (`Z_OK` or `Z_BUF_ERROR` while the member
    ///   goes on, `Z_STREAM_END` once it has ended, anything else for bad data).
    static func inflateAvailable(_ bytes: [UInt8]) -> (output: [UInt8], status: Int32) {
        var stream = z_stream()
        return withUnsafeMutablePointer(to: &stream) { stream in
            let initStatus = CZlib_inflateInit2(stream, 15 + 16)
            guard initStatus == Z_OK else { return ([], initStatus) }
            defer { inflateEnd(stream) }
            var input = bytes
            var output: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            var status = Z_OK
            input.withUnsafeMutableBufferPointer { input in
                stream.pointee.next_in = input.baseAddress
                stream.pointee.avail_in = UInt32(input.count)
                repeat {
                    let produced = chunk.withUnsafeMutableBufferPointer { chunk in
                        stream.pointee.next_out = chunk.baseAddress
                        stream.pointee.avail_out = UInt32(chunk.count)
                        status = inflate(stream, Z_SYNC_FLUSH)
                        return chunk.count - Int(stream.pointee.avail_out)
                    }
                    output += chunk[..<produced]
                } while status == Z_OK && (stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0)
            }
            return (output, status)
        }
    }

    /// Writes `bytes` to a new temporary file and returns its path; the caller unlinks it.
    private static func temporaryFile(_ bytes: [UInt8], sourceLocation: SourceLocation) throws -> String {
        var template = Array("/tmp/viewhost-gzip-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        try #require(descriptor >= 0, "mkstemp failed", sourceLocation: sourceLocation)
        defer { close(descriptor) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == bytes.count, "short write", sourceLocation: sourceLocation)
        return path
    }

    private static func message(_ file: gzFile) -> String {
        var code: Int32 = 0
        return gzerror(file, &code).map { String(cString: $0) } ?? "error \(code)"
    }
}
