import CZlib
import Testing

@testable import HTTPCore

/// Streamed gzip for Server-Sent Events: every chunk decodable on arrival, the whole stream valid gzip.
struct GzipDeflaterTests {
    /// Events, an empty chunk, an incompressible chunk and one larger than zlib's window.
    private static let chunks: [[UInt8]] =
        (0..<5).map(TestBytes.event) + [[], TestBytes.random(count: 3000), TestBytes.json(count: 200_000)]
        + (5..<8).map(TestBytes.event)

    @Test func streamIsGunzippedByZlib() throws {
        let deflater = try GzipDeflater()
        var sent: [UInt8] = []
        for chunk in Self.chunks { sent += deflater.compress(chunk) }
        sent += deflater.finish()
        #expect(try ZlibReference.gunzip(sent) == Self.chunks.flatMap { $0 })
        #expect(try Gzip.decompress(sent, limit: 1 << 20) == Self.chunks.flatMap { $0 })
    }

    @Test func eachChunkDecodesAsSoonAsItIsSent() throws {
        let deflater = try GzipDeflater()
        var sent: [UInt8] = []
        var expected: [UInt8] = []
        for (index, chunk) in Self.chunks.enumerated() {
            sent += deflater.compress(chunk)
            expected += chunk
            let (decoded, status) = ZlibReference.inflateAvailable(sent)
            #expect(status == Z_OK || status == Z_BUF_ERROR, "chunk \(index): zlib status \(status)")
            #expect(decoded == expected, "chunk \(index): nothing may wait in the compressor")
        }
        sent += deflater.finish()
        let (decoded, status) = ZlibReference.inflateAvailable(sent)
        #expect(status == Z_STREAM_END)
        #expect(decoded == expected)
    }

    @Test func syncFlushedChunkEndsWithTheFlushMarker() throws {
        let deflater = try GzipDeflater()
        let output = deflater.compress(TestBytes.event(1))
        // Z_SYNC_FLUSH ends on an empty stored block: 00 00 FF FF after the block header bits.
        #expect(output.suffix(4) == [0x00, 0x00, 0xFF, 0xFF])
    }

    @Test func streamWithoutChunksIsEmptyGzip() throws {
        let deflater = try GzipDeflater()
        let sent = deflater.finish()
        #expect(try ZlibReference.gunzip(sent) == [])
        #expect(try Gzip.decompress(sent, limit: 0) == [])
    }

    @Test(arguments: [(1, 9, 1), (6, 13, 6), (9, 15, 8), (0, 9, 1), (6, 15, 9)] as [(Int32, Int32, Int32)])
    func parametersInRangeWork(level: Int32, windowBits: Int32, memoryLevel: Int32) throws {
        let deflater = try GzipDeflater(level: level, windowBits: windowBits, memoryLevel: memoryLevel)
        var sent: [UInt8] = []
        for chunk in Self.chunks { sent += deflater.compress(chunk) }
        sent += deflater.finish()
        #expect(try ZlibReference.gunzip(sent) == Self.chunks.flatMap { $0 })
    }

    @Test(
        arguments: [
            (10, 13, 6), (-2, 13, 6), (6, 8, 6), (6, 16, 6), (6, -5, 6), (6, 0, 6), (6, 13, 0), (6, 13, 10),
        ] as [(Int32, Int32, Int32)])
    func parametersOutOfRangeThrow(level: Int32, windowBits: Int32, memoryLevel: Int32) {
        #expect {
            _ = try GzipDeflater(level: level, windowBits: windowBits, memoryLevel: memoryLevel)
        } throws: { error in
            guard let error = error as? CompressionError, case .zlib = error else { return false }
            return true
        }
    }

    /// With output segments far smaller than the output, zlib returns with `avail_out == 0` again and again; the
    /// deflater must keep calling it and keep every byte.
    @Test(arguments: [16, 64, 1000])
    func tinyOutputSegmentsLoseNothing(segment: Int) throws {
        let deflater = try GzipDeflater()
        deflater.segmentCapacityForTesting = segment
        var sent: [UInt8] = []
        var expected: [UInt8] = []
        for chunk in Self.chunks {
            sent += deflater.compress(chunk)
            expected += chunk
            #expect(ZlibReference.inflateAvailable(sent).output == expected)
        }
        sent += deflater.finish()
        #expect(try ZlibReference.gunzip(sent) == expected)
    }

    @Test(arguments: [16, 100])
    func oneShotWithTinyOutputSegmentsLosesNothing(segment: Int) throws {
        let input = TestBytes.random(count: 50_000) + TestBytes.json(count: 50_000)
        let deflater = try GzipDeflater(level: 6, windowBits: 15, memoryLevel: 8)
        deflater.segmentCapacityForTesting = segment
        let sent = input.withUnsafeBytes { deflater.compressAndFinish($0) }
        #expect(try ZlibReference.gunzip(sent) == input)
    }

    @Test func rawBufferChunksMatchArrayChunks() throws {
        let viaArrays = try GzipDeflater()
        let viaBuffers = try GzipDeflater()
        for chunk in Self.chunks {
            #expect(chunk.withUnsafeBytes { viaBuffers.compress($0) } == viaArrays.compress(chunk))
        }
        #expect(viaBuffers.finish() == viaArrays.finish())
    }
}
