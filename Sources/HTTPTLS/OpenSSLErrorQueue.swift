import COpenSSL

/// OpenSSL's thread-local error queue. Every failure drains it into the message (so the reason is never lost
/// or left behind to confuse the next call on this thread), and every call starts from an empty queue.
enum OpenSSLErrorQueue {
    /// Empties the queue (before a call whose failure is read with `SSL_get_error`).
    static func clear() {
        ERR_clear_error()
    }

    /// The queued errors as one line, oldest first, and an empty queue; `fallback` when nothing was queued.
    static func drain(fallback: String = "no detail from OpenSSL") -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            parts.append(string(fromTerminated: text))
        }
        return parts.isEmpty ? fallback : parts.joined(separator: "; ")
    }
}

/// The text of a buffer an OpenSSL call filled with a NUL-terminated string.
func string(fromTerminated buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
