import CZlib
import Foundation
import ViewModelCore

/// How the SQLite store keeps a session's whole value (a snapshot): its JSON (``SessionCore``'s `Codable`),
/// compressed with zlib, after a byte that says so and the JSON's length (docs/JOURNAL.md). A new session's value is
/// a few kilobytes of JSON with the same keys over and over: compressed, a third of it.
///
/// ```
/// 0x01 | JSON length: UInt32 LE | zlib stream of the JSON
/// ```
///
/// Snapshots written before this format are the bare JSON (starting with `{`) and are still read.
enum StoredValueFormat {
    /// The format this build writes.
    static let version: UInt8 = 1

    /// Why bytes are not a stored value.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// `core` as the store keeps it.
    /// - Throws: ``UnstorableValue`` naming the feature and field its JSON cannot hold (a number that is not
    ///   finite): never written as empty bytes.
    static func encode(_ core: SessionCore) throws(UnstorableValue) -> [UInt8] {
        let json: [UInt8]
        do {
            json = try StoredJSON.bytes(of: core)
        } catch {
            throw core.unstorable(error)
        }
        var bound = compressBound(uLong(json.count))
        var output = [UInt8](repeating: 0, count: 5 + Int(bound))
        output[0] = version
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { output.replaceSubrange(1..<5, with: $0) }
        let status = output.withUnsafeMutableBufferPointer { buffer in
            json.withUnsafeBufferPointer { source in
                // Level 1: most of level 6's saving on such text, at a fraction of its time.
                compress2(buffer.baseAddress! + 5, &bound, source.baseAddress, uLong(json.count), 1)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed: \(status)")
        output.removeLast(output.count - 5 - Int(bound))
        return output
    }

    /// The JSON of a stored value, in this format or the one before it.
    /// - Throws: ``Unreadable``.
    static func json(_ stored: Data) throws(Unreadable) -> Data {
        guard let first = stored.first else { throw Unreadable(description: "an empty stored value") }
        if first == UInt8(ascii: "{") { return stored }
        guard first == version else {
            throw Unreadable(description: "stored value format \(first) is not one this build reads (\(version))")
        }
        let bytes = [UInt8](stored)
        guard bytes.count >= 5 else { throw Unreadable(description: "a stored value cut short") }
        let length = bytes[1..<5].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length > 0 else { throw Unreadable(description: "an empty stored value") }
        var output = [UInt8](repeating: 0, count: length)
        var produced = uLong(length)
        let status = output.withUnsafeMutableBufferPointer { buffer in
            bytes.withUnsafeBufferPointer { source in
                uncompress(buffer.baseAddress, &produced, source.baseAddress! + 5, uLong(bytes.count - 5))
            }
        }
        guard status == Z_OK, produced == uLong(length) else {
            throw Unreadable(description: "a stored value that does not decompress (zlib \(status))")
        }
        return Data(output)
    }
}
