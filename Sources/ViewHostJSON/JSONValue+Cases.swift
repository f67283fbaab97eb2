extension JSONValue {
    /// Every value of `type` as JSON, in `allCases` order, when `type` is `CaseIterable` and `Encodable` (an enum,
    /// whose values are its raw values); nil for any other type, or one whose cases do not encode. What a value of
    /// the type must be one of: the OpenAPI document's `enum` and the cases a ``JSONValueDecoder/Refusal`` lists.
    public static func cases(of type: Any.Type) -> [JSONValue]? {
        guard let type = type as? any (CaseIterable & Encodable).Type else { return nil }
        return encodedCases(type)
    }

    private static func encodedCases<C: CaseIterable & Encodable>(_ type: C.Type) -> [JSONValue]? {
        let encoder = SortedJSONEncoder()
        let values = type.allCases.compactMap { value -> JSONValue? in
            guard let text = try? encoder.encode(value) else { return nil }
            return try? JSONParser.parse(text, maxDepth: 512)
        }
        return values.isEmpty ? nil : values
    }
}
