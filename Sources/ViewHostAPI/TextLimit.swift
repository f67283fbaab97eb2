/// How long a string the server keeps may be: at most `characters` Unicode code points, and so at most
/// `4 × characters` UTF-8 bytes. Bytes are checked first (O(1) for a native string), then code points; never
/// grapheme clusters, which a combining-mark bomb (`a` and 450,000 U+0301, 900 KB) would pass as one "character".
/// Code points are what JSON Schema's `maxLength` counts, so the OpenAPI document states the limit exactly.
///
/// A limit is declared once, beside the field it bounds, where an intent decodes it:
///
/// ```swift
/// self = .send(text: try container.string("text", limit: ChatIntent.messageLimit))
/// ```
///
/// The server answers a longer value with `422` naming the field and the limit, and its OpenAPI document states
/// it as the field's `maxLength`; both read it from that one place.
public struct TextLimit: Sendable, Equatable, Hashable {
    /// The most Unicode code points.
    public let characters: Int

    /// A limit of `characters` Unicode code points.
    public init(characters: Int) {
        self.characters = characters
    }

    /// The most UTF-8 bytes (4 per code point at most).
    public var bytes: Int { characters * 4 }

    /// Why `text` is over the limit, for a 422 naming the limit; nil when it fits.
    public func violation(of text: String) -> String? {
        let byteCount = text.utf8.count
        guard byteCount > bytes || (byteCount > characters && text.unicodeScalars.count > characters) else {
            return nil
        }
        return "is longer than \(characters) characters (Unicode code points; at most \(bytes) UTF-8 bytes)"
    }
}
