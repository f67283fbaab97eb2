/// Character classes of RFC 9110 §5.6, each a test of one byte without loads or lazy globals.
package enum ByteClass {
    // tchar (RFC 9110 §5.6.2): `!#$%&'*+-.^_`|~`, digits and letters, as a 128-bit mask. Literal constants, not
    // lazily built tables: a `static let` table costs a `swift_once` check on every byte.
    @inline(__always) static func isToken(_ byte: UInt8) -> Bool {
        if byte < 64 { return (0x03FF6CFA00000000 as UInt64) >> byte & 1 == 1 }
        if byte < 128 { return (0x57FFFFFFC7FFFFFE as UInt64) >> (byte - 64) & 1 == 1 }
        return false
    }

    /// field-vchar / SP / HTAB (RFC 9110 §5.5), obs-text included; CR, LF, NUL and other controls excluded.
    @inline(__always) static func isFieldValue(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// Bytes allowed in a request-target (RFC 9112 §3.2): visible ASCII only, no spaces or controls.
    @inline(__always) static func isTarget(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `bytes` equal `literal`, ignoring ASCII case (`literal` must be lower case).
    package static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        for index in 0..<bytes.count where lower(bytes[index]) != pointer[index] {
            return false
        }
        return true
    }

    /// The bytes without leading and trailing SP/HTAB (OWS, RFC 9110 §5.6.3).
    package static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}
