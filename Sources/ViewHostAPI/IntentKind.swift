/// The kinds of a feature's intents: one case per event type, its raw value the event's wire name (`type`). The
/// author writes the names once, here; the intent's `types`, its `type`, the decoder's refusal of an unknown type,
/// the refusals' `allowed` lists and the actions a snapshot offers all derive from it, so a misspelt name is a
/// compile error, not a `422` at run time.
///
/// ```swift
/// public enum TodoIntent: FeatureIntent {
///     case add(title: String)
///     case undo
///     public enum Kind: String, IntentKind { case add, undo }
///     public var kind: Kind {
///         switch self {
///         case .add: .add
///         case .undo: .undo
///         }
///     }
///     …
/// }
/// ```
///
/// The order of the cases is the order documents list the event types in.
public protocol IntentKind: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// The kind of an intent that has no values (``NoIntent``): it has no cases either.
public enum NoIntentKind: IntentKind {
    /// Never read: there is no value.
    public var rawValue: String {
        switch self {}
    }

    /// Always nil: there is no kind.
    public init?(rawValue: String) {
        nil
    }

    /// None.
    public static var allCases: [NoIntentKind] { [] }
}

/// The kind of an intent written before ``FeatureIntent/Kind`` existed: named by its `type` string alone. Such an
/// intent states its ``FeatureIntent/types`` and ``FeatureIntent/type`` itself, and its ``FeatureIntent/kind`` is
/// this wrapper of `type`; it lists no cases. Give the intent an `enum Kind: String, IntentKind` instead, so its
/// names are written once and checked by the compiler.
public struct IntentTypeName: IntentKind {
    /// The intent's `type`.
    public let rawValue: String

    /// The kind named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// None: the names are the intent's own ``FeatureIntent/types``.
    public static var allCases: [IntentTypeName] { [] }
}
