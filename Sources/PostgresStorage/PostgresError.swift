/// A libpq failure.
enum PostgresError: Error, Equatable, CustomStringConvertible {
    /// The connection could not be made or broke.
    case connection(String)
    /// The server refused the statement (SQLSTATE and message).
    case server(state: String, message: String)

    var description: String {
        switch self {
        case .connection(let message): "PostgreSQL connection failed: \(message)"
        case .server(let state, let message): "PostgreSQL error \(state): \(message)"
        }
    }
}
