import ViewHostAPI

/// What a person client posts (API.md "Events", person): replace the person shown (seed 003 has no events; the
/// host adds this one so the screen can be tested with other values).
///
/// ```json
/// {"type":"setPerson","salutation":"Dr.","firstName":"Ada","lastName":"Byron","birthdate":"1815-12-10"}
/// ```
public enum PersonIntent: FeatureIntent {
    /// The person shown is now this one; `birthdate` is `YYYY-MM-DD` or an RFC 3339 date-time.
    case setPerson(salutation: String? = nil, firstName: String, lastName: String, birthdate: String)

    /// `person`.
    public static let feature = "person"

    /// Every event type.
    public static let types = ["setPerson"]

    public var type: String { "setPerson" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        let type = try container.intentType()
        guard type == "setPerson" else { throw container.unknownType(type, of: "person") }
        self = .setPerson(
            salutation: try container.optionalString("salutation"), firstName: try container.string("firstName"),
            lastName: try container.string("lastName"), birthdate: try container.string("birthdate"))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .setPerson(let salutation, let firstName, let lastName, let birthdate):
            try container.encode(
                type: type,
                ["salutation": salutation, "firstName": firstName, "lastName": lastName, "birthdate": birthdate])
        }
    }
}
