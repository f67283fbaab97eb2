/// Why a provider could not answer. The original ignored every such failure (seed 004: `guard let weatherData
/// … else return`); here each one ends as the `failed` status with ``description`` as the snapshot's `error`
/// (quirk fixed: the screen no longer keeps the previous place's weather next to the new name).
///
/// Messages are short full sentences for the screen; they never contain a URL (a Weatherbit URL holds the key).
public enum WeatherError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The service did not answer within the configured timeout (after its one retry).
    case timedOut(service: String)
    /// The service could not be reached (connection refused, DNS failure, reset).
    case unreachable(service: String)
    /// The service answered with a status other than 200.
    case badStatus(service: String, status: Int)
    /// The answer was not the JSON the service documents.
    case invalidResponse(service: String)

    /// One sentence naming the service, as the weather screen shows it.
    public var description: String {
        switch self {
        case .timedOut(let service): "\(service) did not answer in time."
        case .unreachable(let service): "\(service) could not be reached."
        case .badStatus(let service, let status): "\(service) answered with status \(status)."
        case .invalidResponse(let service): "\(service) sent an answer that could not be read."
        }
    }
}
