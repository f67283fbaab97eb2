/// What `GET /v1/sessions/{id}` says of a session: its features and their versions.
public struct SessionInfo: Codable, Sendable, Equatable {
    /// A feature's state in the session.
    public struct Feature: Codable, Sendable, Equatable {
        /// The feature's current version.
        public let version: Int
    }

    /// The session's id.
    public let id: String
    /// When it was created (ISO 8601).
    public let createdAt: String
    /// When it expires unless used (ISO 8601).
    public let expiresAt: String
    /// Its features by name.
    public let features: [String: Feature]
}
