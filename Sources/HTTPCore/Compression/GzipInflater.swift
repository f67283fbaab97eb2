import CZlib

/// A gzip decompressor with an output limit, fed one chunk at a time (a request body as it arrives).
///
/// It accepts one gzip member or several concatenated ones (RFC 1952 §2.2) and nothing else: bytes after the last
/// member that do not start another one are ``CompressionError/corrupt(_:)``, as is a stream that stops before a
/// member's trailer, which ``finish()`` reports. zlib checks each member's CRC-32 and length trailer.
///
/// The limit counts output across all chunks and members. Inflating stops as soon as the output would pass it, so
/// a bomb (10 MiB of zeros gzip to 10 KiB) never yields more than `limit` bytes. Each call's output array grows
/// geometrically, capped at what the limit still allows, so one call holds at most about 1.5 times what it returns
/// while it grows, plus the 64 KiB scratch buffer; feed small chunks to keep that small.
/// ``Gzip/decompress(_:limit:)`` allocates its output exactly once instead.
///
/// After a throw the inflater stays failed and every further call throws the same error. It is confined to the
/// connection that owns it: it is not `Sendable`.
public final class GzipInflater {
    /// The largest total output accepted, in bytes.
    public let limit: Int
    /// The bytes of output produced so far, across all chunks.
    public private(set) var inflatedCount = 0

    /// zlib's stream state. zlib keeps a pointer back to it, so it lives at a fixed address for the inflater's life.
    private let stream: UnsafeMutablePointer<z_stream>
    /// Where zlib writes before the bytes are checked against the limit and copied out.
    private let scratch: UnsafeMutableBufferPointer<Bytef>
    /// How many members have ended with a valid trailer.
    private var completedMembers = 0
    /// Whether the last member has ended and no byte of a next one has been seen.
    private var isAtMemberEnd = false
    /// Whether any input byte has arrived.
    private var hasInput = false
    /// The error that stopped the inflater, thrown again by every later call.
    private var failure: CompressionError?
    /// Whether ``finish()`` has succeeded.
    private var isFinished = false
    /// Whether output is only counted, never kept (the sizing pass of ``Gzip/decompress(_:limit:)``).
    private let discardsOutput: Bool

    private static let scratchSize = 64 * 1024

    /// Creates an inflater for gzip data (gzip only: zlib and raw deflate streams are corrupt here).
    /// - Parameter limit: The largest total output accepted, in bytes (not negative).
    /// - Throws: ``CompressionError/zlib(_:)`` when zlib cannot allocate its state.
    public convenience init(limit: Int) throws(CompressionError) {
        try self.init(limit: limit, discardsOutput: false)
    }

    /// Creates an inflater that keeps its output, or with `discardsOutput` one that only counts it (every `inflate`
    /// then returns an empty array, and ``inflatedCount`` is the size).
    init(limit: Int, discardsOutput: Bool) throws(CompressionError) {
        precondition(limit >= 0, "the inflate limit cannot be negative")
        // Set up zlib before any stored property: a class init that throws once self is complete still runs deinit.
        // windowBits 15 + 16: the largest window, and the gzip wrapper only (zlib.h, inflateInit2).
        self.stream = try makeZlibStream("inflateInit2") { CZlib_inflateInit2($0, 15 + 16) }
        self.limit = limit
        self.discardsOutput = discardsOutput
        scratch = .allocate(capacity: Self.scratchSize)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        scratch.deallocate()
    }

    /// Inflates the next chunk of gzip data.
    /// - Parameter chunk: The next bytes; a member may end, and the next begin, anywhere inside a chunk.
    /// - Returns: The output this chunk completed (possibly empty, when zlib needs more input first).
    /// - Throws: ``CompressionError/tooLarge(limit:)`` once the total output would pass ``limit``;
    ///   ``CompressionError/corrupt(_:)`` for invalid data or a bad trailer.
    public func inflate(_ chunk: UnsafeRawBufferPointer) throws(CompressionError) -> [UInt8] {
        try inflate(chunk, reservingCapacity: 0)
    }

    /// Inflates the next chunk into an array that starts with `capacity` (capped by what the limit still allows),
    /// so output of a known size is allocated once.
    func inflate(_ chunk: UnsafeRawBufferPointer, reservingCapacity capacity: Int) throws(CompressionError) -> [UInt8] {
        if let failure { throw failure }
        precondition(!isFinished, "GzipInflater.inflate called after finish()")
        do {
            var output: [UInt8] = []
            if !discardsOutput { output.reserveCapacity(min(capacity, limit - inflatedCount)) }
            try run(chunk, into: &output)
            return output
        } catch {
            failure = error
            throw error
        }
    }

    /// Inflates the next chunk of gzip data.
    /// - Parameter chunk: The next bytes.
    /// - Returns: The output this chunk completed.
    /// - Throws: As ``inflate(_:)-(UnsafeRawBufferPointer)``.
    public func inflate(_ chunk: [UInt8]) throws(CompressionError) -> [UInt8] {
        // Array.withUnsafeBytes rethrows untyped errors, so the typed error travels out in a Result.
        let result = chunk.withUnsafeBytes { bytes in Result { () throws(CompressionError) in try inflate(bytes) } }
        return try result.get()
    }

    /// Checks that the data ended where a member ended. Call it once, after the last chunk.
    /// - Throws: ``CompressionError/corrupt(_:)`` when there was no data at all or the last member is truncated;
    ///   the earlier error, if inflating failed.
    public func finish() throws(CompressionError) {
        if let failure { throw failure }
        precondition(!isFinished, "GzipInflater.finish called twice")
        guard isAtMemberEnd else {
            let error = CompressionError.corrupt(hasInput ? "the stream ends before the gzip trailer" : "no data")
            failure = error
            throw error
        }
        isFinished = true
    }

    /// Feeds `chunk` to zlib (in 32-bit slices), checks each piece of output against the limit and collects it.
    private func run(_ chunk: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(CompressionError) {
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        hasInput = hasInput || !chunk.isEmpty
        var unfed = chunk.count
        var cursor = chunk.baseAddress
        var isOutputFull = false
        while true {
            if stream.pointee.avail_in == 0, unfed > 0, let base = cursor {
                let slice = min(unfed, Int(UInt32.max))
                stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
                stream.pointee.avail_in = UInt32(slice)
                cursor = base + slice
                unfed -= slice
            }
            if isAtMemberEnd {
                guard stream.pointee.avail_in > 0 else { break }
                // More bytes after a complete member must be another member (RFC 1952 §2.2).
                inflateReset(stream)
                isAtMemberEnd = false
            } else if stream.pointee.avail_in == 0, !isOutputFull {
                break
            }
            stream.pointee.next_out = scratch.baseAddress
            stream.pointee.avail_out = UInt32(scratch.count)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = scratch.count - Int(stream.pointee.avail_out)
            // A full scratch buffer may leave output inside zlib; call again even without new input.
            isOutputFull = stream.pointee.avail_out == 0
            if produced > 0 { try append(produced, to: &output) }
            switch status {
            case Z_OK:
                break
            case Z_STREAM_END:
                isAtMemberEnd = true
                completedMembers += 1
            case Z_BUF_ERROR where stream.pointee.avail_in == 0:
                break  // zlib needs more input: the loop ends above unless the chunk has more slices.
            case Z_MEM_ERROR:
                throw .zlib("inflate: out of memory")
            default:
                // Z_DATA_ERROR (bad header, block, CRC or length), Z_NEED_DICT (not valid in gzip), or no progress.
                let reason = zlibMessage(stream, status: status)
                throw .corrupt(completedMembers > 0 ? "\(reason) (in gzip member \(completedMembers + 1))" : reason)
            }
        }
    }

    /// Copies `count` bytes from the scratch buffer to `output`, unless that would pass the limit.
    private func append(_ count: Int, to output: inout [UInt8]) throws(CompressionError) {
        let allowed = limit - inflatedCount
        // Checked before anything is kept: the bytes that would cross the limit are never stored.
        guard count <= allowed else { throw .tooLarge(limit: limit) }
        inflatedCount += count
        if discardsOutput { return }
        // Grow geometrically, but never past what the limit still allows, so a bomb cannot make us reserve more.
        let needed = output.count + count
        if output.capacity < needed {
            output.reserveCapacity(min(output.count + allowed, max(needed, 2 * output.capacity)))
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
    }
}

@available(*, unavailable)
extension GzipInflater: Sendable {}
