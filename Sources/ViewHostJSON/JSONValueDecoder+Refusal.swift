extension JSONValueDecoder {
    /// Why ``JSONValueDecoder`` refused a value, in words a message about its field can use: the `underlyingError` of
    /// the `DecodingError` it throws (whose own `debugDescription` is a sentence for logs). An API that answers a
    /// client (the events route's `422`) words its answer from this.
    public enum Refusal: Error, Equatable, Sendable {
        /// The value is not of the JSON type `expected` ("a string", "a boolean", "an integer", "a number", "an
        /// object", "an array") but of `found` ("a number"): JSON types, never Swift's.
        case wrongType(expected: String, found: String)
        /// The value is none of its type's values, which are `cases` (the type is `CaseIterable`: an enum; its raw
        /// values, as ``JSONValue/cases(of:)`` lists them).
        case notACase(JSONValue, cases: [JSONValue])
        /// The value is of the right type but out of what the type holds; `reason` says what it must be ("must be a
        /// number Float holds, at most 3.4028235e+38 in magnitude").
        case outOfRange(reason: String)
    }
}
