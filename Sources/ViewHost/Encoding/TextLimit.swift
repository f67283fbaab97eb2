/// How long a string the server keeps may be: at most `characters` Unicode code points, and so at most
/// `4 × characters` UTF-8 bytes. Bytes are checked first (O(1) for a native string), then code points; never
/// grapheme clusters, which a combining-mark bomb (`a` and 450,000 U+0301, 900 KB) would pass as one "character".
/// Code points are what JSON Schema's `maxLength` counts, so the OpenAPI document states the limit exactly.
struct TextLimit: Sendable, Equatable {
    /// The most Unicode code points.
    let characters: Int

    /// The most UTF-8 bytes (4 per code point at most).
    var bytes: Int { characters * 4 }

    /// Why `text` is over the limit, for a 422 naming the limit; nil when it fits.
    func violation(of text: String) -> String? {
        let byteCount = text.utf8.count
        guard byteCount > bytes || (byteCount > characters && text.unicodeScalars.count > characters) else {
            return nil
        }
        return "is longer than \(characters) characters (Unicode code points; at most \(bytes) UTF-8 bytes)"
    }

    /// A chat contact.
    static let contact = TextLimit(characters: 1024)
    /// A chat message.
    static let message = TextLimit(characters: 4000)
    /// A login username or password, a person's first or last name.
    static let name = TextLimit(characters: 256)
    /// A weather location.
    static let location = TextLimit(characters: 200)
    /// Short fields: a salutation, a birthdate, a time zone, a locale.
    static let short = TextLimit(characters: 64)
}
