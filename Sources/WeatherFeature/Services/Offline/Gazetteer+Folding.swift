extension Gazetteer {
    /// Words the generator folds to one spelling, so `St. Louis` finds `Saint Louis` and `Ft Worth` finds
    /// `Fort Worth` (kept in step with CANONICAL_TOKENS in scripts/make-gazetteer.py).
    private static let canonicalTokens: [[UInt8]: [UInt8]] = [
        Array("saint".utf8): Array("st".utf8), Array("sainte".utf8): Array("ste".utf8),
        Array("fort".utf8): Array("ft".utf8), Array("mount".utf8): Array("mt".utf8),
    ]

    /// The search key of `text`: lower case, no accents (`São` → `sao`, `Łódź` → `lodz`), apostrophes dropped,
    /// other punctuation and spaces as single separators, and a few words canonicalised. The same folding the
    /// generator applied to every name, using the blob's own table for non-ASCII scalars, so both sides agree.
    package func searchKey<Text: StringProtocol>(_ text: Text) -> [UInt8] {
        var key: [UInt8] = []
        var token: [UInt8] = []
        func endToken() {
            guard !token.isEmpty else { return }
            if !key.isEmpty { key.append(0x20) }
            key += Self.canonicalTokens[token] ?? token
            token.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x41...0x5A: token.append(UInt8(value + 0x20))
            case 0x61...0x7A, 0x30...0x39: token.append(UInt8(value))
            case 0x27, 0x60: continue  // apostrophes vanish: "Coeur d'Alene" → "coeur dalene"
            case 0..<0x80: endToken()
            default:
                if let replacement = foldReplacement(of: value) {
                    for byte in bytes(replacement) {
                        if byte == 0x20 { endToken() } else { token.append(byte) }
                    }
                } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    token += Array(String(scalar).lowercased().utf8)  // no name holds it, so it can only miss
                } else {
                    endToken()
                }
            }
        }
        endToken()
        return key
    }

    /// The pool reference of `scalar`'s folded form, found by binary search in the fold table.
    private func foldReplacement(of scalar: UInt32) -> Int? {
        var low = 0
        var high = foldCount
        let target = Int(scalar)
        while low < high {
            let middle = (low + high) / 2
            let row = foldOffset + middle * Self.foldSize
            let value = u24(row)
            if value == target { return u24(row + 3) }
            if value < target { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
