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
    public static let feature = PersonSnapshot.feature

    /// A first or last name: at most 256 characters.
    public static let nameLimit = TextLimit(characters: 256)
    /// A salutation or a birthdate as typed: at most 64 characters.
    public static let shortLimit = TextLimit(characters: 64)
    /// What a birthdate the feature takes looks like: an ISO 8601 calendar date or an RFC 3339 date-time with a
    /// zone, of a real day of the years 0001 to 9999 (for documents; the feature checks the value itself).
    public static let birthdatePattern =
        #"^(([0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})-((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)|([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)-02-29)(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9]))?$"#

    /// Every event type.
    public enum Kind: String, IntentKind {
        case setPerson
    }

    /// `setPerson`, the one kind.
    public var kind: Kind { .setPerson }

    /// Reads `{"type":"setPerson",…}` with each field within its limit (the birthdate also by ``birthdatePattern``,
    /// for documents); any other type is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.kind(Kind.self) {
        case .setPerson:
            self = .setPerson(
                salutation: try container.optionalString("salutation", limit: Self.shortLimit),
                firstName: try container.string("firstName", limit: Self.nameLimit),
                lastName: try container.string("lastName", limit: Self.nameLimit),
                birthdate: try container.string(
                    "birthdate", limit: Self.shortLimit, pattern: Self.birthdatePattern,
                    summary:
                        "An ISO 8601 calendar date (1970-01-01, midnight UTC) or an RFC 3339 date-time with a zone (1970-01-01T00:00:00Z, 1969-12-31T19:00:00-05:00; a fraction of 1 to 9 digits allowed), of a real day of the years 0001 to 9999; anything else gets 422."
                ))
        }
    }

    /// Writes `type` and the person's fields, as a client posts them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .setPerson(let salutation, let firstName, let lastName, let birthdate):
            try container.encode(
                kind: kind,
                ["salutation": salutation, "firstName": firstName, "lastName": lastName, "birthdate": birthdate])
        }
    }
}
