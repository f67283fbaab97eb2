import CZlib

/// A gzip compressor for one streamed response, such as a Server-Sent Events stream, fed one chunk at a time.
///
/// Each ``compress(_:)-([UInt8])`` ends with `Z_SYNC_FLUSH`, so the bytes it returns, together with everything
/// returned before, inflate at the client to exactly the input so far: nothing waits in the compressor while an
/// event sits unseen. ``finish()`` ends the stream with the gzip trailer (CRC-32 and length, RFC 1952 §2.3).
///
/// zlib keeps `(1 << (windowBits + 2)) + (1 << (memoryLevel + 9))` bytes per stream, plus about 6 KiB of fixed
/// state. The defaults (window 13, memory level 6) need 32 KiB + 32 KiB = 64 KiB, against 256 KiB + 128 KiB for
/// zlib's defaults (15, 8), which matters with thousands of long-lived streams; small events lose little ratio.
///
/// The deflater is confined to the connection that owns it: it is not `Sendable`.
///
/// ```swift
/// let deflater = try GzipDeflater()
/// write(deflater.compress(Array("data: hello\n\n".utf8)))  // decodable at once
/// write(deflater.finish())
/// ```
public final class GzipDeflater {
    /// zlib's stream state. zlib keeps a pointer back to it, so it lives at a fixed address for the deflater's life.
    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether ``finish()`` has run; the stream takes no more input after it.
    private var isFinished = false
    /// Test hook: a fixed (small) size for every output segment, to exercise the loop that keeps output that does
    /// not fit the first segment.
    var segmentCapacityForTesting: Int?

    /// Creates a deflater that writes a gzip stream (RFC 1952) with a minimal header.
    /// - Parameters:
    ///   - level: The compression level, 0 (store) to 9 (smallest), or -1 for zlib's default (6).
    ///   - windowBits: The base-2 logarithm of the history window, 9 to 15 (zlib refuses 8 with the gzip wrapper).
    ///   - memoryLevel: How much memory zlib uses for its match state, 1 to 9.
    /// - Throws: ``CompressionError/zlib(_:)`` when zlib refuses the parameters or runs out of memory.
    public init(level: Int32 = 6, windowBits: Int32 = 13, memoryLevel: Int32 = 6) throws(CompressionError) {
        // Outside 9...15, windowBits + 16 would not mean gzip to zlib (a negative value would give zlib's own format).
        guard (9...15).contains(windowBits) else { throw .zlib("windowBits must be 9...15, not \(windowBits)") }
        // Set up zlib before any stored property: a class init that throws once self is complete still runs deinit.
        // windowBits + 16 asks zlib for the gzip wrapper instead of zlib's own (zlib.h, deflateInit2).
        self.stream = try makeZlibStream(
            "deflateInit2 (level \(level), windowBits \(windowBits), memLevel \(memoryLevel))"
        ) {
            CZlib_deflateInit2($0, level, Z_DEFLATED, windowBits + 16, memoryLevel, Z_DEFAULT_STRATEGY)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses one chunk and flushes it to a byte boundary (`Z_SYNC_FLUSH`).
    /// - Parameter chunk: The next bytes of the response. An empty chunk still flushes (a 5-byte empty block).
    /// - Returns: The gzip bytes to send now; the first call's output starts with the gzip header.
    public func compress(_ chunk: UnsafeRawBufferPointer) -> [UInt8] {
        precondition(!isFinished, "GzipDeflater.compress called after finish()")
        return deflate(chunk, flush: Z_SYNC_FLUSH)
    }

    /// Compresses one chunk and flushes it to a byte boundary (`Z_SYNC_FLUSH`).
    /// - Parameter chunk: The next bytes of the response.
    /// - Returns: The gzip bytes to send now.
    public func compress(_ chunk: [UInt8]) -> [UInt8] {
        chunk.withUnsafeBytes { compress($0) }
    }

    /// Ends the stream: flushes what is left and writes the gzip trailer. Call it once; the deflater takes no more
    /// input afterwards.
    /// - Returns: The last gzip bytes to send.
    public func finish() -> [UInt8] {
        precondition(!isFinished, "GzipDeflater.finish called twice")
        isFinished = true
        return deflate(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
    }

    /// Compresses all of `input` and ends the stream in one step; ``Gzip/compress(_:level:)-([UInt8],_)`` uses it.
    func compressAndFinish(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        precondition(!isFinished, "GzipDeflater.compressAndFinish called after finish()")
        isFinished = true
        return deflate(input, flush: Z_FINISH)
    }

    /// Runs `deflate` over `input` with `flush` until zlib has written everything that flush asks for.
    ///
    /// The first output segment is sized with `deflateBound`, which is enough for a whole stream ended with
    /// `Z_FINISH`, so the one-shot path never reallocates. A sync flush adds a few bytes per call that the bound may
    /// not cover; zlib then returns with `avail_out == 0`, and the loop keeps going with a further segment rather than
    /// lose them.
    private func deflate(_ input: UnsafeRawBufferPointer, flush: Int32) -> [UInt8] {
        // avail_in is 32-bit, so larger input goes in slices, all but the last with Z_NO_FLUSH.
        let sliceLimit = Int(UInt32.max)
        var unfed = input.count
        var cursor = input.baseAddress
        // Sync flush overhead: an empty stored block (5 bytes) plus up to a byte of pending bits, and the header.
        var capacity =
            segmentCapacityForTesting ?? Int(deflateBound(stream, uLong(min(input.count, sliceLimit)))) + 16
        var output: [UInt8] = []
        var isDone = false
        while !isDone {
            let segment = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                repeat {
                    if stream.pointee.avail_in == 0, unfed > 0, let base = cursor {
                        let slice = min(unfed, sliceLimit)
                        let bytes = base.assumingMemoryBound(to: Bytef.self)
                        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes)
                        stream.pointee.avail_in = UInt32(slice)
                        cursor = base + slice
                        unfed -= slice
                    }
                    let mode = unfed == 0 ? flush : Z_NO_FLUSH
                    let status = CZlib.deflate(stream, mode)
                    // Z_STREAM_ERROR means a broken z_stream, a programming error; Z_BUF_ERROR only means no progress.
                    precondition(status != Z_STREAM_ERROR, "deflate: inconsistent stream state")
                    if mode == flush, stream.pointee.avail_in == 0 {
                        isDone = flush == Z_FINISH ? status == Z_STREAM_END : stream.pointee.avail_out != 0
                    }
                } while !isDone && stream.pointee.avail_out != 0
                count = buffer.count - Int(stream.pointee.avail_out)
            }
            if output.isEmpty { output = segment } else { output.append(contentsOf: segment) }
            capacity = segmentCapacityForTesting ?? max(capacity, 4096)
        }
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        return output
    }
}

@available(*, unavailable)
extension GzipDeflater: Sendable {}

/// A `z_stream` on the heap, set up by `initialize` (`deflateInit2` or `inflateInit2`); when that fails, the memory
/// is freed again and the error names `step` and zlib's reason.
func makeZlibStream(
    _ step: @autoclosure () -> String, _ initialize: (UnsafeMutablePointer<z_stream>) -> Int32
) throws(CompressionError) -> UnsafeMutablePointer<z_stream> {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = initialize(stream)
    guard status == Z_OK else {
        let reason = zlibMessage(stream, status: status)
        stream.deinitialize(count: 1)
        stream.deallocate()
        throw .zlib("\(step()): \(reason)")
    }
    return stream
}

/// zlib's message for the last failure on `stream`, or the name of `status` when zlib set none.
func zlibMessage(_ stream: UnsafeMutablePointer<z_stream>, status: Int32) -> String {
    if let message = stream.pointee.msg { return String(cString: message) }
    switch status {
    case Z_MEM_ERROR: return "out of memory"
    case Z_STREAM_ERROR: return "invalid parameter"
    case Z_VERSION_ERROR: return "incompatible zlib version"
    case Z_DATA_ERROR: return "invalid data"
    case Z_BUF_ERROR: return "no progress possible"
    default: return "status \(status)"
    }
}
