import Foundation

/// The shape of a feature's stored values in this build: what its ``Feature/State``, ``Feature/Event`` and
/// ``Feature/Request`` read through their own `Decodable` (each member's name, whether it may be missing, the kind
/// of its value, a `CaseIterable` enum's raw values), so a change of that shape without a new
/// ``Feature/schemaVersion`` is found when a store opens instead of when a client asks for an old session.
///
/// A store keeps each feature's shape beside its newest schema version (`feature_schemas`). Opened again by a build
/// with the same version, it compares the two (``breakingChange(from:)``): a change that leaves stored values
/// unreadable (a new member they lack, a value of another kind, a case dropped, a member no longer optional)
/// refuses the start, naming the feature and the member; one they still decode with (a new optional member, a
/// member removed, a case added) is only recorded. Derived at start from the types alone, in well under a
/// millisecond per feature, whatever the number of sessions.
///
/// The shape is probed: each type is decoded once from a decoder that records what it asks
/// for and hands back neutral values. A type that cannot be made from those (an enum with associated values, which
/// reads a case name the probe cannot know; a type that checks what it reads) is ``Node/unknown``, and the members
/// its container would have read after it are not seen (``Node/object(_:complete:)`` says whether all were):
/// what is not seen is never counted as changed. The rest is found when a session is read (a `500` naming the
/// feature, the member and the stored version) and by `viewhost check`, which decodes every session.
public struct StoredShape: Equatable, Sendable {
    /// The version of the probe and of ``text``: a shape kept by a build with another is not compared, only
    /// replaced.
    public static let format = 1

    /// What one value reads.
    public indirect enum Node: Equatable, Sendable {
        /// A scalar: `integer`, `number`, `string`, `bool`, `date`, `data`, `url`, `uuid`.
        case value(String)
        /// A `CaseIterable` raw-value enum: the kind of its raw value and the raw values, sorted.
        case choice(String, [String])
        /// A keyed container: its members by name; `complete` when the type was made, so every member it reads
        /// was seen.
        case object([String: Member], complete: Bool)
        /// An array or a set.
        case list(Node)
        /// A dictionary: its key and its value.
        case map(key: Node, value: Node)
        /// A value read from an unkeyed container by position (a type's own `init(from:)`).
        case tuple([Node])
        /// A value that may be null.
        case optional(Node)
        /// What the probe could not make: never compared.
        case unknown
    }

    /// A member of a keyed container.
    public struct Member: Equatable, Sendable {
        /// What it reads.
        public var node: Node
        /// Whether it may be missing (read with `decodeIfPresent`, or checked for first).
        public var optional: Bool

        /// Creates a member.
        public init(_ node: Node, optional: Bool = false) {
            self.node = node
            self.optional = optional
        }
    }

    /// The feature's ``Feature/State``.
    public var state: Node
    /// The feature's ``Feature/Event``.
    public var event: Node
    /// The feature's ``Feature/Request``.
    public var request: Node

    /// Creates a shape.
    public init(state: Node, event: Node, request: Node) {
        self.state = state
        self.event = event
        self.request = request
    }

    /// The shape of `feature`'s stored values in this build.
    public init<F: Feature>(of feature: F.Type) {
        state = StoredShapeProbe.shape(of: F.State.self)
        event = StoredShapeProbe.shape(of: F.Event.self)
        // `Never`, a feature's request when it asks for none, cannot be made: it is unknown.
        request = StoredShapeProbe.shape(of: F.Request.self)
    }

    /// The first change from `stored` (the shape of the values a store holds) to this shape that leaves some of
    /// those values unreadable, as a member's path and what changed ("state.items[].priority is new and
    /// required"); nil when every value of `stored`'s shape still decodes, as far as both shapes were seen.
    public func breakingChange(from stored: StoredShape) -> String? {
        Self.change(from: stored.state, to: state, at: "state")
            ?? Self.change(from: stored.event, to: event, at: "event")
            ?? Self.change(from: stored.request, to: request, at: "request")
    }
}

extension StoredShape {
    /// The first change from `old` to `new` at `path` that a value of `old`'s shape does not decode through.
    static func change(from old: Node, to new: Node, at path: String) -> String? {
        switch (old, new) {
        case (.unknown, _), (_, .unknown):
            return nil
        case (.value(let was), .value(let kind)):
            // An integer reads as a number; every other change of kind fails on the values stored.
            return was == kind || (was == "integer" && kind == "number") ? nil : "\(path) was \(was), is \(kind)"
        case (.choice(let was, let cases), .choice(let kind, let now)):
            guard was == kind else { return "\(path) was \(was), is \(kind)" }
            let dropped = cases.filter { !now.contains($0) }
            return dropped.isEmpty ? nil : "\(path) no longer takes \(dropped.joined(separator: ", "))"
        case (.choice(let was, _), .value(let kind)):
            return was == kind || (was == "integer" && kind == "number") ? nil : "\(path) was \(was), is \(kind)"
        case (.value(let was), .choice(let kind, let cases)):
            return "\(path) was any \(was), is one of \(cases.joined(separator: ", "))"
                + (was == kind ? "" : " (\(kind))")
        case (.object(let was, let wasComplete), .object(let now, _)):
            for (name, member) in now.sorted(by: { $0.key < $1.key }) {
                let at = "\(path).\(name)"
                guard let before = was[name] else {
                    // Only a container seen whole says that a member is new.
                    if wasComplete, !member.optional { return "\(at) is new and required" }
                    continue
                }
                if before.optional, !member.optional { return "\(at) is now required" }
                if let change = change(from: before.node, to: member.node, at: at) { return change }
            }
            return nil
        case (.list(let was), .list(let now)):
            return change(from: was, to: now, at: path + "[]")
        case (.map(let wasKey, let was), .map(let key, let now)):
            return change(from: wasKey, to: key, at: path + "{key}") ?? change(from: was, to: now, at: path + "[key]")
        case (.tuple(let was), .tuple(let now)):
            guard was.count == now.count else { return "\(path) read \(was.count) values, reads \(now.count)" }
            for (index, pair) in zip(was, now).enumerated() {
                if let change = change(from: pair.0, to: pair.1, at: "\(path)[\(index)]") { return change }
            }
            return nil
        case (.optional(let was), .optional(let now)):
            return change(from: was, to: now, at: path)
        case (_, .optional(let now)):
            return change(from: old, to: now, at: path)
        case (.optional, _):
            return "\(path) may no longer be null"
        default:
            return "\(path) was \(old.kind), is \(new.kind)"
        }
    }
}

extension StoredShape.Node {
    /// The node's kind, in a few words.
    var kind: String {
        switch self {
        case .value(let kind): kind
        case .choice(let kind, _): "one of some \(kind) values"
        case .object: "an object"
        case .list: "a list"
        case .map: "a dictionary"
        case .tuple: "a sequence of values"
        case .optional(let node): node.kind + " or null"
        case .unknown: "unknown"
        }
    }
}
