/// Normalises contact names from clients.
///
/// The original accepted any non-empty string, so `" "` made a chat (quirk fixed: names are trimmed of
/// whitespace and newlines and cut to the configured length, so an all-whitespace name is empty).
enum ContactName {
    /// `raw` trimmed and cut to `maxLength` characters (trimmed again after the cut).
    static func normalize(_ raw: String, maxLength: Int) -> String {
        let trimmed = raw.trimmingWhitespace()
        guard trimmed.count > maxLength else { return trimmed }
        return String(trimmed.prefix(max(0, maxLength))).trimmingWhitespace()
    }
}
