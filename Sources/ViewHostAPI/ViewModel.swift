/// ViewHostAPI is the wire contract of ViewHost: the snapshot view models the server serves and the intents
/// (client events) it accepts, as Codable values. The server's features build these snapshots and decode these
/// intents; the Swift client encodes the intents and decodes the snapshots. One definition serves both sides, so
/// a renamed field breaks the build or a test, not an app. It depends on Foundation only, and compiles on Linux
/// and on Apple platforms.
///
/// A view model: an immutable value a screen renders, encoded as (part of) a snapshot's JSON.
public protocol ViewModel: Codable, Equatable, Sendable {}

/// A feature's whole snapshot document, as `GET /v1/sessions/{id}/{feature}` serves it (the server adds
/// `feature` and `version` beside these members).
public protocol FeatureSnapshot: ViewModel {
    /// The feature's name in URLs and snapshots, such as `chat`.
    static var feature: String { get }
}

/// One event a client posts to a feature (`POST /v1/sessions/{id}/{feature}/events`): `{"type": …, fields…}`.
///
/// Contract: ``type`` is the JSON `type` member; encoding writes `type` and the intent's fields, nothing else;
/// decoding accepts what encoding writes.
public protocol FeatureIntent: Codable, Equatable, Sendable {
    /// The feature the intent is posted to, such as `chat`.
    static var feature: String { get }
    /// The event type, such as `send`.
    var type: String { get }
}
