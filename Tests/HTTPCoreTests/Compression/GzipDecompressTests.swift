import CZlib
import HTTPCore
import Testing

/// `Gzip.decompress`: limits, members, and every way gzip data can be bad.
struct GzipDecompressTests {
    private static let text = TestBytes.json(count: 20_000)
    private static let member = Gzip.compress(text)

    @Test func bombStopsAtTheLimit() throws {
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 10 << 20))
        #expect(bomb.count < 20_000, "10 MiB of zeros gzip to about 10 KiB")
        #expect(throws: CompressionError.tooLarge(limit: 1 << 20)) { try Gzip.decompress(bomb, limit: 1 << 20) }
    }

    @Test func bombFedInPiecesNeverHoldsMoreThanTheLimit() throws {
        let limit = 1 << 20
        let bomb = Gzip.compress([UInt8](repeating: 0, count: 10 << 20))
        let inflater = try GzipInflater(limit: limit)
        var kept = 0
        var error: CompressionError?
        for start in stride(from: 0, to: bomb.count, by: 1024) {
            do {
                let output = try inflater.inflate(Array(bomb[start..<min(start + 1024, bomb.count)]))
                #expect(output.capacity <= limit + 64, "at most the limit, plus malloc's rounding")
                kept += output.count
            } catch let thrown {
                error = thrown
                break
            }
        }
        #expect(error == .tooLarge(limit: limit))
        #expect(kept <= limit)
        #expect(inflater.inflatedCount <= limit)
    }

    /// The one-shot path sizes its output from the trailer or a counting pass, never by doubling.
    @Test(arguments: [1, 3])
    func outputIsAllocatedOnceAtItsSize(members: Int) throws {
        let content = TestBytes.json(count: 1 << 20)
        let gzipped = (0..<members).flatMap { _ in Gzip.compress(content) }
        let output = try Gzip.decompress(gzipped, limit: 4 << 20)
        #expect(output.count == members * content.count)
        #expect(output.capacity - output.count < 4096, "only malloc's rounding above the exact size")
    }

    @Test(arguments: [0, 100, 1 << 20, UInt32.max])
    func bombWithAForgedSizeClaimStillStopsAtTheLimit(claim: UInt32) throws {
        var bomb = Gzip.compress([UInt8](repeating: 0, count: 10 << 20))
        withUnsafeBytes(of: claim.littleEndian) { bomb.replaceSubrange((bomb.count - 4)..., with: $0) }
        #expect(throws: CompressionError.tooLarge(limit: 1 << 20)) { try Gzip.decompress(bomb, limit: 1 << 20) }
    }

    @Test func outputOfExactlyTheLimitIsAccepted() throws {
        #expect(try Gzip.decompress(Self.member, limit: Self.text.count) == Self.text)
        #expect(throws: CompressionError.tooLarge(limit: Self.text.count - 1)) {
            try Gzip.decompress(Self.member, limit: Self.text.count - 1)
        }
    }

    @Test func emptyContentFitsALimitOfZero() throws {
        #expect(try Gzip.decompress(Gzip.compress([]), limit: 0) == [])
    }

    @Test func concatenatedMembersAreOneBody() throws {
        let first = Array("first member, ".utf8)
        let second = TestBytes.random(count: 70_000)
        let joined = Gzip.compress(first) + Gzip.compress([]) + Gzip.compress(second)
        #expect(try Gzip.decompress(joined, limit: 1 << 20) == first + second)
        #expect(try ZlibReference.gunzip(joined) == first + second, "zlib agrees (RFC 1952 §2.2)")
    }

    @Test func limitCountsAcrossMembers() throws {
        let half = [UInt8](repeating: 7, count: 600_000)
        let joined = Gzip.compress(half) + Gzip.compress(half)
        #expect(throws: CompressionError.tooLarge(limit: 1_000_000)) {
            try Gzip.decompress(joined, limit: 1_000_000)
        }
    }

    @Test func emptyInputIsCorrupt() {
        #expect(Self.isCorrupt { try Gzip.decompress([], limit: 100) })
    }

    @Test(
        arguments: [
            ("plain text", Array("hello, world".utf8)),
            ("random bytes", TestBytes.random(count: 1000)),
            ("gzip magic only", [0x1F, 0x8B]),
            ("gzip magic, method 7", [0x1F, 0x8B, 0x07, 0, 0, 0, 0, 0, 0, 3, 0, 0]),
            ("reserved flag bits", [0x1F, 0x8B, 0x08, 0xE0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ] as [(String, [UInt8])])
    func garbageIsCorrupt(name: String, bytes: [UInt8]) {
        #expect(Self.isCorrupt { try Gzip.decompress(bytes, limit: 1 << 20) }, "\(name)")
    }

    @Test func zlibFormatIsNotGzip() throws {
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(uLong(Self.text.count))))
        var length = uLongf(compressed.count)
        let status = compressed.withUnsafeMutableBufferPointer { output in
            Self.text.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &length, input.baseAddress, uLong(input.count), 6)
            }
        }
        try #require(status == Z_OK)
        #expect(Self.isCorrupt { try Gzip.decompress(Array(compressed[..<Int(length)]), limit: 1 << 20) })
    }

    @Test(arguments: [1, 4, 8, 9, 100, member.count / 2, member.count - 11])
    func truncatedStreamIsCorrupt(dropped: Int) {
        #expect(Self.isCorrupt { try Gzip.decompress(Array(Self.member.dropLast(dropped)), limit: 1 << 20) })
    }

    @Test func badCRCIsCorrupt() {
        var bytes = Self.member
        bytes[bytes.count - 8] ^= 0x01  // CRC-32, the first four trailer bytes (RFC 1952 §2.3.1)
        #expect(Self.isCorrupt { try Gzip.decompress(bytes, limit: 1 << 20) })
    }

    @Test func badLengthIsCorrupt() {
        var bytes = Self.member
        bytes[bytes.count - 4] ^= 0x01  // ISIZE, the input length modulo 2^32
        #expect(Self.isCorrupt { try Gzip.decompress(bytes, limit: 1 << 20) })
    }

    @Test func flippedContentByteIsCorrupt() {
        var bytes = Self.member
        bytes[bytes.count / 2] ^= 0x10
        #expect(Self.isCorrupt { try Gzip.decompress(bytes, limit: 1 << 20) })
    }

    @Test(
        arguments: [
            ("one zero byte", [0x00]),
            ("eight zero bytes", [UInt8](repeating: 0, count: 8)),
            ("text", Array("junk".utf8)),
            ("a lone magic byte", [0x1F]),
            ("a member's header only", [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 3]),
        ] as [(String, [UInt8])])
    func trailingGarbageIsCorrupt(name: String, trailer: [UInt8]) {
        #expect(Self.isCorrupt { try Gzip.decompress(Self.member + trailer, limit: 1 << 20) }, "\(name)")
    }

    @Test func zlibMessageIsKept() {
        var bytes = Self.member
        bytes[bytes.count - 8] ^= 0x01
        #expect(throws: CompressionError.corrupt("incorrect data check")) {
            try Gzip.decompress(bytes, limit: 1 << 20)
        }
    }

    private static func isCorrupt(_ body: () throws -> [UInt8]) -> Bool {
        do {
            _ = try body()
            return false
        } catch CompressionError.corrupt {
            return true
        } catch {
            return false
        }
    }
}
