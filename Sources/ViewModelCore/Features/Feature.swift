import Foundation
import ViewHostAPI

/// One feature as a pure state machine over one state value: what an app author writes to have ViewHost host
/// a view model. The four seed features (chat, weather, login, person) are written the same way, against this
/// protocol and nothing internal.
///
/// Contract:
/// - ``State`` and ``Event`` are values: `Codable`, `Equatable`, `Sendable`; no closures, no references. They are
///   kept in the session's journal and snapshots, so their `Codable` shape is a stored format: change it only with
///   a new ``schemaVersion`` (and a migration, see ``migrate(state:from:)``).
/// - ``Intent`` is what clients post (a wire type, shareable with an app); ``event(for:)`` turns a decoded intent
///   into the feature's event, or refuses it naming the field (answered `422`).
/// - ``check(_:in:)`` runs before a client event is applied and refuses, without changing anything, an event the
///   state cannot apply (answered `409`); once an event passed the check, ``apply(_:to:context:)`` applies it.
///   Internal events (timers, follow-ups, provider answers) are never checked.
/// - ``apply(_:to:context:)`` changes the state and asks the context for effects *as data*: a timer that delivers
///   an event later, a follow-up event now, a request for outside work (a provider call) whose answer comes back
///   as an event. It reads the time, the session's settings and random draws only from the context, never from
///   a clock or a random source of its own, so the same events in the same contexts give the same states.
/// - ``snapshot(of:settings:)`` is a pure function of the state: the same state gives the same view model. A feature
///   whose snapshot depends on who is looking is a ``ViewerDependentFeature`` and writes
///   ``snapshot(of:settings:viewer:)`` instead; every other feature shows every viewer the same snapshot.
/// - ``validate(state:)``, ``validate(event:)`` and ``validate(request:)`` refuse a state or an event read from outside (a journal
///   export a client posts, a file `viewhost replay` reads) that the feature could not have made itself: past its
///   own caps, past a field's limit. They accept anything by default; a feature with limits states them there, in
///   terms of the same constants its intents and `apply` use.
/// - Sessions that talk to each other do it with data: a feature that ``takesContacts`` is told of a contact made
///   (``introduced(to:)``), delivers events to it as an effect (``FeatureContext/deliver(_:to:)``: journaled with the
///   event that decided it, applied once by the receiving session as an input of its own, source `session`, in
///   order), sees who sent an event it applies (``FeatureContext/sender``), may refuse a contact's events
///   (``accepts(_:from:in:)``), and is told of an event that could not arrive (``undelivered(_:to:because:)``).
///
/// ```swift
/// enum Counter: Feature {
///     static func event(for intent: CounterIntent) -> Int { intent.amount }
///     static func check(_ event: Int, in state: Int) throws(EventRefusal) {}
///     static func apply(_ event: Int, to state: inout Int, context: inout FeatureContext<Counter>) {
///         state += event
///         context.markChanged()
///     }
///     static func snapshot(of state: Int, settings: SessionSettings) -> CounterSnapshot { … }
///     static func describe(_ event: Int) -> EventDescription { EventDescription(name: "add", summary: "\(event)") }
/// }
/// ```
public protocol Feature: SendableMetatype {
    /// The feature's whole state in one session.
    associatedtype State: Codable, Equatable, Sendable
    /// Every event the feature reacts to: what its client intents become, and its own internal events.
    associatedtype Event: Codable, Equatable, Sendable
    /// What clients post; `NoIntent` for a feature that takes nothing from clients.
    associatedtype Intent: FeatureIntent = NoIntent
    /// Outside work the feature asks for (a provider call); `Never` when it asks for none.
    associatedtype Request: Codable, Equatable, Sendable = Never
    /// The snapshot served for the state.
    associatedtype Snapshot: FeatureSnapshot

    /// The feature's name and type; by default named by ``Snapshot``'s `feature`.
    static var key: FeatureKey<Self> { get }

    /// The version of the stored shape of ``State`` and ``Event`` (and ``Request``): 1 at first, one more with
    /// every change of their `Codable` shape. Stored sessions record it; an older one is migrated on load, or the
    /// server refuses to start naming the feature and the version (see ``oldestMigratableVersion``).
    static var schemaVersion: Int { get }

    /// The oldest schema version ``migrate(state:from:)`` and ``migrate(event:from:)`` can bring up to
    /// ``schemaVersion``; ``schemaVersion`` (the default) when they migrate nothing.
    static var oldestMigratableVersion: Int { get }

    /// The feature's event for a client's intent.
    /// - Throws: ``IntentRejection`` naming the field whose value the feature cannot take (answered `422`).
    static func event(for intent: Intent) throws(IntentRejection) -> Event

    /// Refuses a client event the state cannot apply now (no chat open, a disabled action…).
    /// - Throws: ``EventRefusal`` saying why and which events are accepted now.
    static func check(_ event: Event, in state: State) throws(EventRefusal)

    /// Applies one event to the state.
    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Self>)

    /// The snapshot of the state, for a session with `settings`.
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot

    /// The snapshot of the state as `viewer` sees it. By default ``snapshot(of:settings:)``, the same for every
    /// viewer; a ``ViewerDependentFeature`` writes it (and only such a feature is asked for a member's view).
    static func snapshot(of state: State, settings: SessionSettings, viewer: Viewer) -> Snapshot

    /// The event's name and a short payload summary, for the data-flow log. By default derived from the event's
    /// own `Encodable` (``EventDescription/init(deriving:)``): an intent's `type` or an enum case's name, and its
    /// fields. Write it to name events as the original does, or to keep a secret (a password) out of the log.
    static func describe(_ event: Event) -> EventDescription

    /// A state stored by schema `version` (at least ``oldestMigratableVersion``, below ``schemaVersion``), read
    /// from `decoder` and brought up to this version: decode the old shape, return the new value.
    static func migrate(state decoder: any Decoder, from version: Int) throws -> State

    /// An event stored by schema `version` (a journal record or a pending timer's), brought up to this version.
    static func migrate(event decoder: any Decoder, from version: Int) throws -> Event

    /// Refuses a state read from outside (the value a journal export starts from) that this feature could not have
    /// reached by its own events: a list past its cap, a text past its limit, a limit raised past its default. The
    /// state has been migrated to ``schemaVersion`` already. Accepts every state by default.
    /// - Throws: ``ValueRejection`` naming the field, as the state's `Codable` shape names it.
    static func validate(state: State) throws(ValueRejection)

    /// Refuses an event read from outside (a journal export's records and pending timers) that this feature could
    /// not have made: a client event past its intent's field limits, an internal event with values the feature never
    /// uses. Accepts every event by default.
    /// - Throws: ``ValueRejection`` naming the field.
    static func validate(event: Event) throws(ValueRejection)

    /// Refuses a pending request read from outside (a journal export's value, which a restored session asks again)
    /// that this feature could not have made. Accepts every request by default.
    /// - Throws: ``ValueRejection`` naming the field.
    static func validate(request: Request) throws(ValueRejection)

    /// Whether a session's clients may make contacts for this feature (an invitation of purpose `contact` names a
    /// feature that takes them); false by default. A feature that takes contacts implements
    /// ``introduced(to:)`` and delivers events with ``FeatureContext/deliver(_:to:)``.
    static var takesContacts: Bool { get }

    /// Whether a session's owner may invite participants to this feature (an invitation of purpose `join` names
    /// features that can be shared); false by default. A member invited to it reads, posts to and streams it beside
    /// the owner; a feature that is not shared is never seen by a member.
    static var isShareable: Bool { get }

    /// The event a new contact becomes, applied on each side once the contact is made (source `session`): the other
    /// side's name and address. Nil (the default) keeps nothing.
    static func introduced(to contact: Contact) -> Event?

    /// Whether the state takes `event`, delivered by the contact at `address` (the address this session knows them
    /// by). A feature that blocks a contact answers false for it: the event is dropped silently (the sender is told
    /// it arrived). Accepts every event by default.
    static func accepts(_ event: Event, from address: ContactAddress, in state: State) -> Bool

    /// The event that tells the feature `event`, delivered to `address`, did not arrive and why (applied as a step of
    /// the session that sent it, source `session`, caused by the event that delivered it). Nil (the default) keeps
    /// nothing.
    static func undelivered(_ event: Event, to address: ContactAddress, because reason: DeliveryFailure) -> Event?
}

extension Feature {
    /// Named by ``Snapshot``'s `feature`, so the wire name is written once.
    public static var key: FeatureKey<Self> { FeatureKey(Snapshot.feature) }

    /// 1: a feature's first stored shape.
    public static var schemaVersion: Int { 1 }

    /// ``schemaVersion``: nothing older is migrated unless the feature says so.
    public static var oldestMigratableVersion: Int { schemaVersion }

    /// Migrates nothing: throws ``SchemaError/cannotMigrate(feature:from:to:)``, and the server refuses to start.
    public static func migrate(state decoder: any Decoder, from version: Int) throws -> State {
        throw SchemaError.cannotMigrate(feature: key.name, from: version, to: schemaVersion)
    }

    /// Migrates nothing: throws ``SchemaError/cannotMigrate(feature:from:to:)``, and the server refuses to start.
    public static func migrate(event decoder: any Decoder, from version: Int) throws -> Event {
        throw SchemaError.cannotMigrate(feature: key.name, from: version, to: schemaVersion)
    }

    /// The description the event's own `Encodable` gives (``EventDescription/init(deriving:)``).
    public static func describe(_ event: Event) -> EventDescription {
        EventDescription(deriving: event)
    }

    /// Accepts every state: a feature whose state has bounds or invariants checks them itself.
    public static func validate(state: State) throws(ValueRejection) {}

    /// Accepts every event: a feature whose events have bounds checks them itself.
    public static func validate(event: Event) throws(ValueRejection) {}

    /// Accepts every request.
    public static func validate(request: Request) throws(ValueRejection) {}

    /// Takes no contacts: a feature opts in.
    public static var takesContacts: Bool { false }

    /// Not shared: a feature opts in.
    public static var isShareable: Bool { false }

    /// ``snapshot(of:settings:)``: every viewer sees the same snapshot.
    public static func snapshot(of state: State, settings: SessionSettings, viewer: Viewer) -> Snapshot {
        snapshot(of: state, settings: settings)
    }

    /// Whether the snapshot depends on who is looking: whether the feature is a ``ViewerDependentFeature`` (the one
    /// fact, not a flag kept beside it).
    public static var dependsOnViewer: Bool { Self.self is any ViewerDependentFeature.Type }

    /// Keeps no contact.
    public static func introduced(to contact: Contact) -> Event? { nil }

    /// Accepts every delivered event.
    public static func accepts(_ event: Event, from address: ContactAddress, in state: State) -> Bool { true }

    /// Shows nothing of an event that did not arrive.
    public static func undelivered(_ event: Event, to address: ContactAddress, because reason: DeliveryFailure)
        -> Event?
    {
        nil
    }
}

extension Feature where Intent == NoIntent {
    /// Never called: a feature without intents takes no client events, and `NoIntent` has no value to pass.
    public static func event(for intent: Intent) throws(IntentRejection) -> Event {
        // Not `switch intent {}`: the compiler proves the body unreachable and warns "will never be executed".
        fatalError("\(Self.self) takes no client events: NoIntent has no values")
    }
}

extension Feature where Intent == Event {
    /// The intent itself, when clients post the feature's events as they are.
    public static func event(for intent: Intent) throws(IntentRejection) -> Event { intent }
}

/// Why a client's intent was not taken: a field's value the feature cannot use (answered `422` naming it).
public struct IntentRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field, as the intent's JSON names it, such as `birthdate`.
    public var field: String
    /// What is wrong, as a sentence fragment after the field's name: "must be an ISO 8601 date".
    public var reason: String

    /// Creates a rejection.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// The field and the reason in a sentence, such as "text is longer than 500 characters".
    public var description: String { "\(field) \(reason)" }
}

/// Why stored data of a feature cannot be read by this build.
public enum SchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feature cannot bring data of schema `from` up to `to`.
    case cannotMigrate(feature: String, from: Int, to: Int)
    /// The data was written by a newer schema of the feature than this build has.
    case newer(feature: String, stored: Int, current: Int)
    /// The data names a feature this app does not register.
    case unknownFeature(String)
    /// The feature's stored shape changed (``StoredShape``) while its schema version stayed `version`: `change` says
    /// where, such as "state.items[].priority is new and required".
    case shapeChanged(feature: String, version: Int, change: String)

    /// One line naming the feature, the versions or the change, for the log and the exit message.
    public var description: String {
        switch self {
        case .cannotMigrate(let feature, let from, let to):
            "feature '\(feature)' cannot migrate its stored data from schema version \(from) to \(to)"
        case .newer(let feature, let stored, let current):
            "feature '\(feature)' was stored by schema version \(stored), newer than this build's \(current)"
        case .unknownFeature(let name):
            "the store holds sessions with feature '\(name)', which this app does not register"
        case .shapeChanged(let feature, let version, let change):
            "feature '\(feature)' changed the shape of its stored data but not its schemaVersion (\(version)): "
                + "\(change), so the sessions stored by schema version \(version) would not be read; raise schemaVersion to "
                + "\(version + 1) and migrate version \(version) in migrate(state:from:) and migrate(event:from:)"
        }
    }
}

/// A typed handle on one feature: its name in URLs and snapshots and its type.
public struct FeatureKey<F: Feature>: Sendable, Hashable {
    /// The feature's name, such as `chat`.
    public let name: String

    /// Creates a key.
    public init(_ name: String) {
        self.name = name
    }
}

/// Why a client event was not applied: the state cannot apply it now. Nothing changed.
public struct EventRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// One sentence saying why, such as "No chat is open: open one first or name a contact."
    public var reason: String
    /// The event types the feature accepts now.
    public var allowed: [String]

    /// Creates a refusal listing the kinds of intents the feature accepts now:
    /// `EventRefusal(reason: "No item is done.", allowed: [TodoIntent.Kind.add, .toggle])`.
    public init<Kind: IntentKind>(reason: String, allowed: [Kind]) {
        self.reason = reason
        self.allowed = allowed.map(\.rawValue)
    }

    /// Creates a refusal listing event types by name (for a feature's own events that are not intents; an
    /// intent's kinds are listed by the initializer that takes them, which cannot misspell one).
    public init(reason: String, allowed: [String]) {
        self.reason = reason
        self.allowed = allowed
    }

    /// The reason, as the `422` detail says it.
    public var description: String { reason }
}
