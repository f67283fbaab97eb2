/// Chooses the response's content coding from a request's `Accept-Encoding` (RFC 9110 §12.5.3).
///
/// A pure function of the header value. The rules, with the RFC's section where it has one:
/// * No `Accept-Encoding`: identity. Any coding would be acceptable, but a client that does not ask gets none.
/// * The value is a comma-separated list of codings, each with an optional weight `;q=` from 0 to 1 with up to three
///   decimals (§12.4.2). Codings and `q` are case-insensitive; whitespace around items, `;` and empty list items
///   are ignored. `x-gzip` is gzip (§8.4.1.3).
/// * `*` stands for every coding not listed by name, identity included. `q=0` means "not acceptable".
/// * Identity is acceptable unless `identity;q=0`, or `*;q=0` without an entry for identity, excludes it. When the
///   list does not name identity (or `*`), it is the least preferred acceptable coding.
/// * Gzip wins over identity when its weight is positive and at least identity's, so `gzip` and `*` give gzip.
/// * An empty value means "no coding" (§12.5.3): identity.
///
/// Lenient but safe: an item whose weight is not a valid qvalue (`q=2`, `q=abc`, `q=0.0001`) is ignored as if it
/// were absent, so a malformed entry can neither switch gzip on for a client that did not ask for it nor rule out
/// identity. Parameters other than `q` are ignored. When a coding is listed more than once, its lowest weight
/// counts, so a `gzip;q=0` anywhere refuses gzip.
public enum ContentCodingNegotiation {
    /// The coding to use for a response.
    /// - Parameter acceptEncoding: The request's `Accept-Encoding` value, several fields joined with `, `, or `nil`
    ///   when the request has none.
    /// - Returns: `.gzip`, `.identity`, or `nil` when the client accepts neither (the server may then answer
    ///   `406 Not Acceptable`, or send identity anyway as §12.5.3 allows).
    public static func preferredCoding(acceptEncoding: String?) -> ContentCoding? {
        guard let acceptEncoding else { return .identity }
        var gzip: Int?
        var identity: Int?
        var star: Int?
        for item in acceptEncoding.fieldParts(separatedBy: UInt8(ascii: ","), omittingEmpty: false) {
            guard let (coding, weight) = parse(item) else { continue }
            // Weights are in thousandths, 0...1000, so comparisons are exact.
            switch coding {
            case "gzip", "x-gzip": gzip = min(gzip ?? weight, weight)
            case "identity": identity = min(identity ?? weight, weight)
            case "*": star = min(star ?? weight, weight)
            default: continue
            }
        }
        let gzipWeight = gzip ?? star ?? 0
        guard let identityWeight = identity ?? star else {
            // No entry names identity: acceptable, but below every positive weight.
            return gzipWeight > 0 ? .gzip : .identity
        }
        if gzipWeight > 0, gzipWeight >= identityWeight { return .gzip }
        return identityWeight > 0 ? .identity : nil
    }

    /// Splits one list item into its lowercased coding and weight in thousandths, or `nil` when the item is empty
    /// or its weight is not a valid qvalue.
    private static func parse(_ item: Substring) -> (coding: String, weight: Int)? {
        var parts = item.fieldParts(separatedBy: UInt8(ascii: ";"), omittingEmpty: false).makeIterator()
        guard let first = parts.next() else { return nil }
        let coding = first.trimmingOWS().lowercased()
        guard !coding.isEmpty else { return nil }
        var weight = 1000
        while let parameter = parts.next() {
            let pair = parameter.trimmingOWS()
            guard let equals = pair.firstIndex(of: "=") else { continue }
            guard pair[..<equals].trimmingOWS().lowercased() == "q" else { continue }
            guard let value = qvalue(pair[pair.index(after: equals)...].trimmingOWS()) else { return nil }
            weight = value
        }
        return (coding, weight)
    }

    /// Parses `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` (RFC 9110 §12.4.2) into thousandths.
    private static func qvalue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let whole = bytes.first, whole == UInt8(ascii: "0") || whole == UInt8(ascii: "1") else { return nil }
        var thousandths = Int(whole - UInt8(ascii: "0")) * 1000
        guard bytes.count > 1 else { return thousandths }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes.dropFirst(2) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return thousandths <= 1000 ? thousandths : nil
    }
}
