import CZlib
import HTTPCore
import Testing

/// One-shot gzip: our output checked by zlib's own gunzip, and our inflater's limits and refusals.
struct GzipTests {
    /// Named inputs, so a failing case says which.
    struct Input: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { "\(name) (\(bytes.count) bytes)" }
    }

    static let inputs: [Input] = [
        Input(name: "empty", bytes: []),
        Input(name: "one byte", bytes: [0x42]),
        Input(name: "small text", bytes: Array("Hello, gzip!".utf8)),
        Input(name: "1 MiB random", bytes: TestBytes.random(count: 1 << 20)),
        Input(name: "1 MiB JSON", bytes: TestBytes.json(count: 1 << 20)),
        Input(name: "1 MiB zeros", bytes: [UInt8](repeating: 0, count: 1 << 20)),
    ]

    @Test(arguments: inputs)
    func compressedOutputIsGunzippedByZlib(input: Input) throws {
        let compressed = Gzip.compress(input.bytes)
        #expect(compressed.starts(with: [0x1F, 0x8B, 0x08]), "gzip magic and deflate method (RFC 1952 §2.3.1)")
        #expect(try ZlibReference.gunzip(compressed) == input.bytes)
    }

    @Test(arguments: inputs)
    func compressedOutputRoundTrips(input: Input) throws {
        let compressed = Gzip.compress(input.bytes)
        #expect(try Gzip.decompress(compressed, limit: input.bytes.count) == input.bytes)
    }

    @Test(arguments: [0, 1, 9, -1] as [Int32])
    func everyLevelRoundTrips(level: Int32) throws {
        let input = TestBytes.json(count: 100_000)
        let compressed = Gzip.compress(input, level: level)
        #expect(try ZlibReference.gunzip(compressed) == input)
        #expect(try Gzip.decompress(compressed, limit: input.count) == input)
    }

    @Test func compressibleInputShrinks() {
        let input = TestBytes.json(count: 1 << 20)
        #expect(Gzip.compress(input).count < input.count / 20)
    }

    @Test func incompressibleInputFitsTheBound() throws {
        let input = TestBytes.random(count: 1 << 20)
        let compressed = Gzip.compress(input)
        // deflateBound's promise, which the one-shot path relies on to allocate once.
        #expect(compressed.count <= input.count + input.count / 1000 + 64)
    }

    @Test func rawBufferOverloadMatchesArrayOverload() {
        let input = TestBytes.json(count: 10_000)
        #expect(input.withUnsafeBytes { Gzip.compress($0) } == Gzip.compress(input))
        #expect(Gzip.compress(UnsafeRawBufferPointer(start: nil, count: 0)) == Gzip.compress([]))
    }

    @Test func outputOfZlibsOwnGzipWriterIsInflated() throws {
        // compress2 makes a zlib stream, not gzip; gzip from zlib's gz* writer is the independent producer here.
        let input = TestBytes.json(count: 50_000)
        let gzipped = try ZlibReference.gzip(input)
        #expect(try Gzip.decompress(gzipped, limit: input.count) == input)
    }
}
