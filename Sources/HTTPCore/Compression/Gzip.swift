import CZlib

/// One-shot gzip (RFC 1952) over zlib, for whole response and request bodies.
///
/// Streams use ``GzipDeflater`` (responses) and ``GzipInflater`` (request bodies) directly; these functions are the
/// common case of a body that is already in memory.
public enum Gzip {
    /// Compresses `bytes` into one gzip member, with zlib's default window (15) and memory level (8).
    ///
    /// The output buffer is sized once with `deflateBound`, so compressing never reallocates.
    /// - Parameters:
    ///   - bytes: The content to compress; it may be empty.
    ///   - level: The compression level, 0 (store) to 9 (smallest), or -1 for zlib's default (6).
    /// - Returns: A complete gzip stream, header and trailer included.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        bytes.withUnsafeBytes { compress($0, level: level) }
    }

    /// Compresses the bytes in `buffer` into one gzip member, with zlib's default window and memory level.
    /// - Parameters:
    ///   - buffer: The content to compress; it may be empty.
    ///   - level: The compression level, 0 (store) to 9 (smallest), or -1 for zlib's default (6).
    /// - Returns: A complete gzip stream, header and trailer included.
    public static func compress(_ buffer: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8] {
        precondition((-1...9).contains(level), "gzip level must be -1...9, got \(level)")
        let deflater: GzipDeflater
        do {
            deflater = try GzipDeflater(level: level, windowBits: 15, memoryLevel: 8)
        } catch {
            // With parameters checked above, zlib's only failure left is malloc failing; Swift traps on that too.
            fatalError("\(error)")
        }
        return deflater.compressAndFinish(buffer)
    }

    /// Inflates a gzip body: one member or several concatenated ones (RFC 1952 §2.2), nothing before or after.
    ///
    /// The output is allocated once, at its exact size, and never past `limit`: a bomb costs no more than `limit`
    /// bytes plus 64 KiB of scratch space, however large it claims or turns out to be. The size comes from the last
    /// member's ISIZE trailer (RFC 1952 §2.3.1). When that is missing, wrong or above the limit (several members, or
    /// a sender that lies), a first pass counts the output without keeping it, then a second fills an exact buffer.
    /// An honest single member, the usual case, is inflated once.
    /// - Parameters:
    ///   - bytes: The gzip data.
    ///   - limit: The largest decompressed size accepted, in bytes.
    /// - Returns: The decompressed content.
    /// - Throws: ``CompressionError/tooLarge(limit:)`` past `limit`; ``CompressionError/corrupt(_:)`` for empty
    ///   input, bad data, a bad CRC or length, a truncated stream, or trailing bytes; ``CompressionError/zlib(_:)`` if
    ///   zlib cannot allocate its state.
    public static func decompress(_ bytes: [UInt8], limit: Int) throws(CompressionError) -> [UInt8] {
        let result = bytes.withUnsafeBytes { bytes in
            Result { () throws(CompressionError) in try decompress(bytes, limit: limit) }
        }
        return try result.get()
    }

    /// Inflates with an exact allocation: first trusting the ISIZE trailer, else after a counting pass.
    private static func decompress(_ bytes: UnsafeRawBufferPointer, limit: Int) throws(CompressionError) -> [UInt8] {
        if let claimed = lastMemberSize(bytes), claimed <= limit {
            // The claim is the inflater's limit, so a wrong one costs at most `claimed` bytes before the fallback.
            do {
                return try inflateAll(bytes, limit: claimed, capacity: claimed)
            } catch .tooLarge {
                // More output than the last member claims: several members, or a false trailer.
            }
        }
        let counter = try GzipInflater(limit: limit, discardsOutput: true)
        _ = try counter.inflate(bytes)
        try counter.finish()
        return try inflateAll(bytes, limit: counter.inflatedCount, capacity: counter.inflatedCount)
    }

    /// Inflates all of `bytes` into an array that starts with `capacity`.
    private static func inflateAll(
        _ bytes: UnsafeRawBufferPointer, limit: Int, capacity: Int
    ) throws(CompressionError) -> [UInt8] {
        let inflater = try GzipInflater(limit: limit)
        let output = try inflater.inflate(bytes, reservingCapacity: capacity)
        try inflater.finish()
        return output
    }

    /// The ISIZE field of the last member (the uncompressed length modulo 2^32, little-endian, RFC 1952 §2.3.1),
    /// or `nil` when the data is too short to be a gzip member. A claim from the sender, checked by zlib later.
    private static func lastMemberSize(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 18 else { return nil }  // 10-byte header + empty block + 8-byte trailer, at least
        let trailer = bytes[(bytes.count - 4)...]
        return trailer.reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
