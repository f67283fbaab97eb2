import TestSupport

/// Deterministic inputs for the compression tests.
enum TestBytes {
    /// `count` pseudo-random bytes from a fixed seed: incompressible, and the same on every run.
    static func random(count: Int, seed: UInt64 = 0x5EED) -> [UInt8] {
        var generator = SplitMix64(state: seed)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next().littleEndian) { bytes += $0 }
        }
        return Array(bytes.prefix(count))
    }

    /// `count` bytes of repetitive JSON, the kind of body the server gzips.
    static func json(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = 0
        while bytes.count < count {
            bytes += Array(#"{"id":\#(index),"contact":"Ann","text":"Hello there","read":false},"#.utf8)
            index += 1
        }
        return Array(bytes.prefix(count))
    }

    /// One Server-Sent Events message.
    static func event(_ index: Int) -> [UInt8] {
        Array("id: \(index)\nevent: snapshot\ndata: {\"version\":\(index),\"screen\":\"chat\"}\n\n".utf8)
    }
}
