import Foundation
import ViewModelCore

/// The text forms of the values the store writes that PostgreSQL's text protocol has no plain form for.
enum PostgresEncoded {
    /// `bytes` as lowercase hex (token digests are kept as text).
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of lowercase or uppercase hex `text`, nil when it is not hex.
    static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `bytes` as a `bytea` in its text form (`\x` and hex).
    static func bytea(_ bytes: [UInt8]) -> String {
        "\\x" + hex(bytes)
    }

    /// The bytes of a `bytea` in its text form (`\x` and hex), nil when it is not one.
    static func bytes(bytea text: String) -> [UInt8]? {
        guard text.hasPrefix("\\x") else { return nil }
        return bytes(hex: String(text.dropFirst(2)))
    }

    /// A PostgreSQL array literal of `values`, each quoted.
    static func array(_ values: [String]) -> String {
        "{"
            + values.map {
                "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            }
            .joined(separator: ",") + "}"
    }
}
