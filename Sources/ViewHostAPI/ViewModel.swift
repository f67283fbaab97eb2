/// ViewHostAPI is the generic wire core of ViewHost: what every feature's wire types are made of (``ViewModel``,
/// ``FeatureSnapshot``, ``FeatureIntent``, ``ActionDescriptor``, ``TextLimit``), and nothing of any feature. Each
/// feature keeps its own snapshot and intents in a module of its own (the seed's are `ChatAPI`, `WeatherAPI`,
/// `LoginAPI` and `PersonAPI`) that the server's feature and an app share: one definition serves both sides, so a
/// renamed field breaks the build or a test, not an app. It depends on Foundation only, and compiles on Linux and
/// on Apple platforms.
///
/// A view model: an immutable value a screen renders, encoded as (part of) a snapshot's JSON.
public protocol ViewModel: Codable, Equatable, Sendable {}

/// A feature's whole snapshot document, as `GET /v1/sessions/{id}/{feature}` serves it (the server adds
/// `feature` and `version` beside these members).
public protocol FeatureSnapshot: ViewModel {
    /// The feature's name in URLs and snapshots, such as `chat`: written here once, and read by the feature, its
    /// intents and the server from here.
    static var feature: String { get }

    /// One line for people saying what the snapshot shows (`viewhost client watch` prints it per change), such as
    /// `Paris, France: Light rain - 46℉ (ready)`; empty for a generic line made from the snapshot's values.
    var summaryLine: String { get }
}

extension FeatureSnapshot {
    /// Empty: a generic line is made from the snapshot's values.
    public var summaryLine: String { "" }
}

/// One event a client posts to a feature (`POST /v1/sessions/{id}/{feature}/events`): `{"type": …, fields…}`.
///
/// Contract: ``type`` is the JSON `type` member and one of ``types``; encoding writes `type` and the intent's
/// fields, nothing else; decoding accepts what encoding writes, reads each field through ``IntentCodingKeys``
/// (with the field's ``TextLimit`` where it keeps text) and refuses a `type` not in ``types``. The server decodes
/// posted events with this `Decodable` and nothing else, and derives the event's OpenAPI schema from it.
///
/// ```swift
/// public enum NoteIntent: FeatureIntent {
///     case add(text: String)
///     public static let feature = NotesSnapshot.feature
///     public static let types = ["add"]
///     public var type: String { "add" }
///     public init(from decoder: any Decoder) throws {
///         let container = try decoder.container(keyedBy: IntentCodingKeys.self)
///         switch try container.intentType() {
///         case "add": self = .add(text: try container.string("text", limit: TextLimit(characters: 500)))
///         case let other: throw container.unknownType(other, of: Self.feature)
///         }
///     }
///     public func encode(to encoder: any Encoder) throws { … }
/// }
/// ```
public protocol FeatureIntent: Codable, Equatable, Sendable {
    /// The feature the intent is posted to, such as `chat`.
    static var feature: String { get }
    /// Every event type a client may post, in the order documents list them.
    static var types: [String] { get }
    /// The event type, such as `send`.
    var type: String { get }
}

/// The intents of a feature that takes none from clients (it only shows a state that changes by itself).
public enum NoIntent: FeatureIntent {
    /// No feature's: the type is never instantiated.
    public static var feature: String { "" }
    /// None.
    public static var types: [String] { [] }
    /// Never read: there is no value.
    public var type: String {
        switch self {}
    }

    /// Refuses every event: the feature takes none.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "this feature takes no events"))
    }

    /// Never called: there is no value.
    public func encode(to encoder: any Encoder) throws {
        switch self {}
    }
}
