import CGazetteerData

/// The offline provider's place index: the GeoNames extract that `scripts/make-gazetteer.py` embeds in the
/// binary (CGazetteerData), read in place.
///
/// The blob is the index: keys are stored sorted, each pointing at its places ordered most populous first, so a
/// lookup is a binary search plus a short scan, with no parsing, no copy and no allocation at load. Loading only
/// checks the header, so ``shared`` costs microseconds and the resident memory grows only by the pages lookups
/// touch. The layout is documented in the script's header.
///
/// `@unchecked Sendable`: `base` points at bytes nobody writes (the C array in the binary's read-only data, or a
/// copy this instance owns and frees in `deinit`), so concurrent reads are safe.
package final class Gazetteer: @unchecked Sendable {
    /// Why a blob was refused.
    package enum FormatError: Error, Equatable {
        /// Shorter than its header, or than the sizes the header declares.
        case truncated
        /// Not a gazetteer blob, or one of another format version.
        case unsupported
    }

    static let headerFieldCount = 16
    static let headerSize = 8 + 4 * headerFieldCount
    static let placeSize = 17
    static let keySize = 6
    static let foldSize = 6
    static let qualifierSize = 5
    static let stateSize = 5
    static let countrySize = 5
    static let zoneSize = 3

    /// The process's gazetteer, the embedded one, checked once on first use.
    package static let shared: Gazetteer = {
        do {
            return try Gazetteer(
                base: UnsafeRawPointer(vh_gazetteer_bytes()), size: vh_gazetteer_length(), owned: false)
        } catch {
            preconditionFailure("the embedded gazetteer is unreadable (\(error)); rerun scripts/make-gazetteer.py")
        }
    }()

    let base: UnsafeRawPointer
    /// The blob's length in bytes.
    package let size: Int
    /// Where the blob starts in memory (the bench finds its mapping's resident size by it).
    package var startAddress: UInt { UInt(bitPattern: base) }
    /// How many place records (a place with an alias is counted once per key).
    package let placeCount: Int
    /// How many distinct search keys.
    package let keyCount: Int
    let countryCount: Int
    let stateCount: Int
    let zoneCount: Int
    let qualifierCount: Int
    let foldCount: Int
    let poolOffset: Int
    let foldOffset: Int
    let qualifierOffset: Int
    let stateOffset: Int
    let countryOffset: Int
    let zoneOffset: Int
    let keyOffset: Int
    let placeOffset: Int
    private let owned: Bool

    /// Reads a copy of `bytes` (tests build blobs of their own).
    /// - Throws: ``FormatError`` when `bytes` is not a complete blob of this format.
    package convenience init(copying bytes: [UInt8]) throws(FormatError) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        do {
            try self.init(base: UnsafeRawPointer(copy), size: bytes.count, owned: true)
        } catch {
            copy.deallocate()
            throw error
        }
    }

    private init(base: UnsafeRawPointer, size: Int, owned: Bool) throws(FormatError) {
        self.base = base
        self.size = size
        self.owned = owned
        guard size >= Self.headerSize else { throw .truncated }
        guard base.loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x5A47_4856),  // "VHGZ"
            UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 4, as: UInt16.self)) == 1
        else { throw .unsupported }
        func field(_ index: Int) -> Int {
            Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8 + 4 * index, as: UInt32.self)))
        }
        (placeCount, keyCount, countryCount, stateCount) = (field(0), field(1), field(2), field(3))
        (zoneCount, qualifierCount, foldCount) = (field(4), field(5), field(6))
        (poolOffset, foldOffset, qualifierOffset, stateOffset) = (field(7), field(8), field(9), field(10))
        (countryOffset, zoneOffset, keyOffset, placeOffset) = (field(11), field(12), field(13), field(14))
        let sections = [
            (poolOffset, foldOffset - poolOffset), (foldOffset, foldCount * Self.foldSize),
            (qualifierOffset, qualifierCount * Self.qualifierSize), (stateOffset, stateCount * Self.stateSize),
            (countryOffset, countryCount * Self.countrySize), (zoneOffset, zoneCount * Self.zoneSize),
            (keyOffset, keyCount * Self.keySize), (placeOffset, placeCount * Self.placeSize),
        ]
        var end = Self.headerSize
        for (offset, length) in sections {
            guard offset == end, length >= 0 else { throw .truncated }
            end = offset + length
        }
        guard end == field(15), end == size else { throw .truncated }
    }

    deinit {
        if owned { UnsafeMutableRawPointer(mutating: base).deallocate() }
    }

    // MARK: - Reading

    @inline(__always) func u8(_ offset: Int) -> Int {
        Int(base.load(fromByteOffset: offset, as: UInt8.self))
    }

    @inline(__always) func u16(_ offset: Int) -> Int {
        u8(offset) | u8(offset + 1) << 8
    }

    @inline(__always) func u24(_ offset: Int) -> Int {
        u8(offset) | u8(offset + 1) << 8 | u8(offset + 2) << 16
    }

    @inline(__always) func i24(_ offset: Int) -> Int {
        let value = u24(offset)
        return value >= 1 << 23 ? value - 1 << 24 : value
    }

    @inline(__always) func u32(_ offset: Int) -> Int {
        u16(offset) | u16(offset + 2) << 16
    }

    /// The bytes of the pool string at `reference` (a 3-byte offset into the pool).
    func bytes(_ reference: Int) -> UnsafeRawBufferPointer {
        let start = poolOffset + reference
        precondition(reference >= 0 && start < foldOffset, "gazetteer string reference out of range")
        let length = u8(start)
        precondition(start + 1 + length <= foldOffset, "gazetteer string out of range")
        return UnsafeRawBufferPointer(start: base + start + 1, count: length)
    }

    /// The pool string at `reference`, decoded.
    func string(_ reference: Int) -> String {
        String(decoding: bytes(reference), as: UTF8.self)
    }
}
