import Foundation
import ViewHostAPI

/// One feature (chat, weather, login, person) as a pure state machine over one state value.
///
/// Contract:
/// - ``State`` and ``Event`` are values: `Codable`, `Equatable`, `Sendable`; no closures, no references.
/// - ``apply(_:to:context:)`` changes the state and asks the context for effects *as data*: a timer that delivers
///   an event later, a follow-up event now, a request for outside work (a provider call) whose answer comes back
///   as an event. It reads the time, the session's settings and random draws only from the context, never from
///   a clock or a random source of its own, so the same events in the same contexts give the same states.
/// - ``check(_:in:)`` runs before a client event is applied and refuses, without changing anything, an event the
///   state cannot apply (answered `409`); once an event passed the check, ``apply(_:to:context:)`` applies it.
///   Internal events (timers, follow-ups, provider answers) are never checked.
/// - ``snapshot(of:settings:)`` is a pure function of the state: the same state gives the same view model.
///
/// ```swift
/// enum Counter: Feature {
///     static let key = FeatureKey<Counter>("counter")
///     static func check(_ event: Int, in state: Int) throws(EventRefusal) {}
///     static func apply(_ event: Int, to state: inout Int, context: inout FeatureContext<Counter>) {
///         state += event
///         context.markChanged()
///     }
///     …
/// }
/// ```
public protocol Feature: SendableMetatype {
    /// The feature's whole state in one session.
    associatedtype State: Codable, Equatable, Sendable
    /// Every event the feature reacts to: client intents and its own internal events.
    associatedtype Event: Codable, Equatable, Sendable
    /// Outside work the feature asks for (a provider call); `Never` when it asks for none.
    associatedtype Request: Codable, Equatable, Sendable = Never
    /// The snapshot served for the state.
    associatedtype Snapshot: ViewModel

    /// The feature's name and type.
    static var key: FeatureKey<Self> { get }

    /// Refuses a client event the state cannot apply now (no chat open, a disabled action…).
    /// - Throws: ``EventRefusal`` saying why and which events are accepted now.
    static func check(_ event: Event, in state: State) throws(EventRefusal)

    /// Applies one event to the state.
    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Self>)

    /// The snapshot of the state, for a session with `settings`.
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot

    /// The event's name and a short payload summary, for the data-flow log.
    static func describe(_ event: Event) -> EventDescription
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

    /// Creates a refusal.
    public init(reason: String, allowed: [String]) {
        self.reason = reason
        self.allowed = allowed
    }

    public var description: String { reason }
}

/// How the data-flow log shows an event.
public struct EventDescription: Sendable, Equatable {
    /// The event's name as the original names it, such as `sending` or `changeLocation`.
    public var name: String
    /// A short payload summary, such as `contact=John text="Hi"` (truncated).
    public var summary: String

    /// Creates a description; `summary` is cut to 120 UTF-8 bytes (see ``shortened(_:maxBytes:)``).
    public init(name: String, summary: String = "") {
        self.name = name
        self.summary = Self.shortened(summary, maxBytes: 120)
    }

    /// `value` itself when it has at most `maxBytes` UTF-8 bytes; otherwise its longest prefix of whole Unicode
    /// code points within `maxBytes - 1` bytes, then `…`. It cuts on a code point, not a grapheme cluster: one
    /// "character" of 450,000 combining marks is still cut to a few bytes. Costs O(maxBytes), whatever the length.
    public static func shortened(_ value: String, maxBytes: Int) -> String {
        guard value.utf8.count > maxBytes else { return value }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in value.unicodeScalars {
            let width = UTF8.width(scalar)
            guard used + width < maxBytes else { break }
            kept.append(scalar)
            used += width
        }
        return String(kept) + "…"
    }
}
