/// Where the current `changeLocation` stands, as the snapshot's `status` says it. The original has no such
/// field: a client could only guess from `"Loading..."` and `"Not found"`.
public enum WeatherStatus: String, Sendable, Equatable, Encodable {
    /// A lookup or a weather fetch is under way; the fields other than `locationName` keep their last values.
    case loading
    /// The place was found and its weather is shown.
    case ready
    /// The geocoder found no place: `locationName` is `"Not found"` and the other fields are empty.
    case notFound
    /// A provider failed; `error` says why and the weather fields are empty.
    case failed
}
