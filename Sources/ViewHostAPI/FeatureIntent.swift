/// One event a client posts to a feature (`POST /v1/sessions/{id}/{feature}/events`): `{"type": …, fields…}`.
///
/// Contract: ``kind`` names the event type, one case of ``Kind`` (an enum the author writes once, whose raw values
/// are the wire names); ``type`` (the JSON `type` member) and ``types`` derive from it. Encoding writes `type` and
/// the intent's fields, nothing else; decoding accepts what encoding writes, reads `type` as a ``Kind`` (refusing an
/// unknown one with the list of kinds) and each field through ``IntentCodingKeys`` (with the field's ``TextLimit``
/// where it keeps text). The server decodes posted events with this `Decodable` and nothing else, and derives the
/// event's OpenAPI schema from it; an ``ActionDescriptor`` made from an intent value posts what its `Encodable`
/// writes.
///
/// ```swift
/// public enum NoteIntent: FeatureIntent {
///     case add(text: String)
///     case clear
///     public enum Kind: String, IntentKind { case add, clear }
///     public static let feature = NotesSnapshot.feature
///     public var kind: Kind {
///         switch self {
///         case .add: .add
///         case .clear: .clear
///         }
///     }
///     public init(from decoder: any Decoder) throws {
///         let container = try decoder.container(keyedBy: IntentCodingKeys.self)
///         switch try container.kind(Kind.self) {
///         case .add: self = .add(text: try container.string("text", limit: TextLimit(characters: 500)))
///         case .clear: self = .clear
///         }
///     }
///     public func encode(to encoder: any Encoder) throws {
///         var container = encoder.container(keyedBy: IntentCodingKeys.self)
///         switch self {
///         case .add(let text): try container.encode(kind: kind, ["text": text])
///         case .clear: try container.encode(kind: kind)
///         }
///     }
/// }
/// ```
///
/// An intent written before ``Kind`` existed (its `types` and `type` as strings) still conforms: its ``Kind`` is
/// ``IntentTypeName``, which wraps its `type`.
public protocol FeatureIntent: Codable, Equatable, Sendable {
    /// The event types: an enum with one case per event type, whose raw values are the wire names.
    associatedtype Kind: IntentKind = IntentTypeName

    /// The feature the intent is posted to, such as `chat`.
    static var feature: String { get }
    /// Every event type a client may post, in the order documents list them: by default ``Kind``'s cases.
    static var types: [String] { get }
    /// The event type, such as `send`: by default ``kind``'s raw value.
    var type: String { get }
    /// The event type as a ``Kind``.
    var kind: Kind { get }
}

extension FeatureIntent {
    /// The cases' raw values of the intent's `Kind`, in their order.
    public static var types: [String] { Kind.allCases.map(\.rawValue) }

    /// ``kind``'s raw value.
    public var type: String { kind.rawValue }
}

extension FeatureIntent where Kind == IntentTypeName {
    /// The intent's own ``type``, for an intent written before ``Kind`` existed.
    public var kind: IntentTypeName { IntentTypeName(rawValue: type) }
}

/// The intents of a feature that takes none from clients (it only shows a state that changes by itself).
public enum NoIntent: FeatureIntent {
    /// No feature's: the type is never instantiated.
    public static var feature: String { "" }

    /// Never read: there is no value.
    public var kind: NoIntentKind {
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
