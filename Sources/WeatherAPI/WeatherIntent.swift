import ViewHostAPI

/// What a weather client posts (API.md "Events", weather): the "Choose location" alert's Submit (seed 004).
///
/// ```json
/// {"type":"changeLocation","location":"Richmond, VA"}
/// ```
public enum WeatherIntent: FeatureIntent {
    /// Look up `location` and show its weather.
    case changeLocation(location: String)

    /// `weather`.
    public static let feature = WeatherSnapshot.feature

    /// A location as typed: at most 200 characters.
    public static let locationLimit = TextLimit(characters: 200)

    /// Every event type.
    public enum Kind: String, IntentKind {
        case changeLocation
    }

    /// `changeLocation`, the one kind.
    public var kind: Kind { .changeLocation }

    /// Reads `{"type":"changeLocation","location":…}` with the location within ``locationLimit``; any other type is
    /// refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: IntentCodingKeys.self)
        switch try container.kind(Kind.self) {
        case .changeLocation:
            self = .changeLocation(location: try container.string("location", limit: Self.locationLimit))
        }
    }

    /// Writes `type` and `location`, as a client posts them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IntentCodingKeys.self)
        switch self {
        case .changeLocation(let location): try container.encode(kind: kind, ["location": location])
        }
    }
}
