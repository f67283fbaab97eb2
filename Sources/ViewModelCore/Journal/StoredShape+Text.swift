import Foundation

/// A shape as a store keeps it: the format, a colon, and compact JSON with sorted keys, so the same shape always
/// gives the same text and a store's row of it stays small (the seed features' take a few hundred bytes).
///
/// A node is a scalar's kind as a string (`"integer"`), `null` when unknown, or an array whose first element says
/// what it is: `["object", complete, {member: node}]` (an optional member is `["?", node]`), `["list", node]`,
/// `["map", key, value]`, `["tuple", [node…]]`, `["optional", node]`, `["choice", kind, [raw value…]]`. The whole
/// is `{"event": node, "request": node, "state": node}`.
extension StoredShape {
    /// The shape as a store keeps it.
    public var text: String {
        let tree: [String: Any] = ["state": Self.tree(state), "event": Self.tree(event), "request": Self.tree(request)]
        let json = (try? JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .withoutEscapingSlashes]))
            .flatMap { String(data: $0, encoding: .utf8) }
        return "\(Self.format):" + (json ?? "{}")
    }

    /// The most a kept shape may be: larger text read from a store is not a shape this build wrote.
    static let maxTextBytes = 1 << 20

    /// How deep a kept shape may nest (the probe stops at ``StoredShapeProbe/maxDepth``).
    static let maxTextDepth = 4 * StoredShapeProbe.maxDepth

    /// A shape a store kept (``text``); nil when it was written in another format, or is not a shape (the store is
    /// read as outside data: nothing in it may stop the start but a true change).
    public init?(text: String) {
        let prefix = "\(Self.format):"
        guard text.utf8.count <= Self.maxTextBytes, text.hasPrefix(prefix),
            let tree = try? JSONSerialization.jsonObject(with: Data(text.utf8.dropFirst(prefix.utf8.count)))
                as? [String: Any],
            let state = tree["state"].flatMap({ Self.node($0, depth: 0) }),
            let event = tree["event"].flatMap({ Self.node($0, depth: 0) }),
            let request = tree["request"].flatMap({ Self.node($0, depth: 0) })
        else { return nil }
        self.init(state: state, event: event, request: request)
    }

    private static func tree(_ node: Node) -> Any {
        switch node {
        case .value(let kind): kind
        case .unknown: NSNull()
        case .choice(let kind, let cases): ["choice", kind, cases] as [Any]
        case .object(let members, let complete):
            [
                "object", complete,
                members.mapValues { member -> Any in member.optional ? ["?", tree(member.node)] : tree(member.node) },
            ] as [Any]
        case .list(let element): ["list", tree(element)] as [Any]
        case .map(let key, let value): ["map", tree(key), tree(value)] as [Any]
        case .tuple(let elements): ["tuple", elements.map(tree)] as [Any]
        case .optional(let wrapped): ["optional", tree(wrapped)] as [Any]
        }
    }

    /// The node `tree` is; nil when it is not one.
    private static func node(_ tree: Any, depth: Int) -> Node? {
        guard depth < maxTextDepth else { return nil }
        if tree is NSNull { return .unknown }
        if let kind = tree as? String { return .value(kind) }
        guard let parts = tree as? [Any], let tag = parts.first as? String else { return nil }
        let rest = Array(parts.dropFirst())
        switch (tag, rest.count) {
        case ("choice", 2):
            guard let kind = rest[0] as? String, let cases = rest[1] as? [String] else { return nil }
            return .choice(kind, cases)
        case ("object", 2):
            guard let complete = rest[0] as? Bool, let members = rest[1] as? [String: Any] else { return nil }
            var read: [String: Member] = [:]
            for (name, value) in members {
                if let optional = value as? [Any], optional.count == 2, optional[0] as? String == "?" {
                    guard let node = node(optional[1], depth: depth + 1) else { return nil }
                    read[name] = Member(node, optional: true)
                } else {
                    guard let node = node(value, depth: depth + 1) else { return nil }
                    read[name] = Member(node)
                }
            }
            return .object(read, complete: complete)
        case ("list", 1):
            return node(rest[0], depth: depth + 1).map { .list($0) }
        case ("map", 2):
            guard let key = node(rest[0], depth: depth + 1), let value = node(rest[1], depth: depth + 1) else {
                return nil
            }
            return .map(key: key, value: value)
        case ("tuple", 1):
            guard let elements = rest[0] as? [Any] else { return nil }
            let nodes = elements.compactMap { node($0, depth: depth + 1) }
            return nodes.count == elements.count ? .tuple(nodes) : nil
        case ("optional", 1):
            return node(rest[0], depth: depth + 1).map { .optional($0) }
        default:
            return nil
        }
    }
}
