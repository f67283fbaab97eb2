extension StringProtocol {
    /// The text without the spaces and tabs (OWS, RFC 9110 §5.6.3) around it, for header list items.
    func trimmingOWS() -> SubSequence {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isWhitespace($0) }),
            let end = lastIndex(where: { !isWhitespace($0) })
        else { return self[endIndex...] }
        return self[start...end]
    }
}
