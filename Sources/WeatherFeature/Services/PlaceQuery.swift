import Foundation

/// What a user typed, split the way people write places: a name, then comma-separated qualifiers, such as
/// `Richmond, VA`, `Tallinn, Estonia` or `Springfield, IL, USA`.
struct PlaceQuery: Equatable {
    /// The place's name, trimmed.
    let place: String
    /// The qualifiers (a US state, a country, a region), trimmed, empty ones dropped.
    let qualifiers: [String]

    init(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        place = parts.first ?? ""
        qualifiers = parts.dropFirst().filter { !$0.isEmpty }
    }

    /// `text` without case, accents or punctuation, words joined by single spaces (`"São  Paulo!"` → `"sao paulo"`),
    /// for comparing a provider's names with what was typed.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let words = folded.unicodeScalars.split { !CharacterSet.alphanumerics.contains($0) }
        return words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }
}
