import Foundation

/// Derives a ``StoredShape/Node`` from a type's own `Decodable`: decodes it once with a decoder that records what
/// it asks for (members by name, whether it reads them with `decodeIfPresent`, the kind of each value) and hands
/// back neutral values (`""`, `0`, `false`, a `CaseIterable` enum's first case).
///
/// Optionals, arrays, sets and dictionaries are probed for their element and then given empty, so an element type
/// that cannot be made from neutral values (an enum with associated values, which reads a case name the probe
/// cannot know) leaves that element ``StoredShape/Node/unknown`` and the container around it whole. A member of
/// such a type read directly ends its container's probe there: the container is recorded as far as it was seen
/// (`complete: false`). Recursion and nesting deeper than ``maxDepth`` are cut the same way. Nothing of a value is
/// recorded, only what the code reads: the same types always give the same shape.
enum StoredShapeProbe {
    /// How deep the probe follows nested types.
    static let maxDepth = 32

    /// The shape `type` reads.
    static func shape<T: Decodable>(of type: T.Type) -> StoredShape.Node {
        let node = ProbeNode()
        _ = try? ProbeRun().make(T.self, into: node, depth: 0)
        return node.shape
    }

    /// Why the probe could not make a value.
    struct Unmakeable: Error {}
}

/// A node being recorded.
final class ProbeNode {
    enum Kind {
        case pending
        case value(String)
        case choice(String, [String])
        case object([String: ProbeNode], optional: Set<String>, complete: Bool)
        case list(ProbeNode)
        case map(ProbeNode, ProbeNode)
        case tuple([ProbeNode])
        case optional(ProbeNode)
        case unknown
    }

    var kind = Kind.pending
    /// The type read it with `decodeNil()` first: it may be null.
    var nullable = false

    var shape: StoredShape.Node {
        let node: StoredShape.Node
        switch kind {
        case .pending, .unknown: node = .unknown
        case .value(let name): node = .value(name)
        case .choice(let name, let cases): node = .choice(name, cases)
        case .object(let members, let optional, let complete):
            var shaped: [String: StoredShape.Member] = [:]
            for (name, child) in members {
                shaped[name] = StoredShape.Member(child.shape, optional: optional.contains(name))
            }
            node = .object(shaped, complete: complete)
        case .list(let element): node = .list(element.shape)
        case .map(let key, let value): node = .map(key: key.shape, value: value.shape)
        case .tuple(let elements): node = .tuple(elements.map(\.shape))
        case .optional(let wrapped): node = .optional(wrapped.shape)
        }
        return nullable && node != .unknown ? .optional(node) : node
    }

    /// The member `name`, made a keyed container's member (an object node) when it is not one yet.
    func member(_ name: String) -> ProbeNode {
        guard case .object(var members, let optional, let complete) = kind else {
            let child = ProbeNode()
            kind = .object([name: child], optional: [], complete: false)
            return child
        }
        if let child = members[name] { return child }
        let child = ProbeNode()
        members[name] = child
        kind = .object(members, optional: optional, complete: complete)
        return child
    }

    /// Marks member `name` as one that may be missing.
    func markOptional(_ name: String) {
        _ = member(name)
        guard case .object(let members, var optional, let complete) = kind else { return }
        optional.insert(name)
        kind = .object(members, optional: optional, complete: complete)
    }

    /// A keyed container's node, once the type that read it was made: every member it reads was seen.
    func markComplete() {
        guard case .object(let members, let optional, _) = kind else { return }
        kind = .object(members, optional: optional, complete: true)
    }
}

/// One probe: the types being made, to cut recursion.
final class ProbeRun {
    private var making: Set<ObjectIdentifier> = []
    /// The keyed containers opened while making each type, marked complete once it is made.
    private var opened: [[ProbeNode]] = []

    /// A value of `type`, recording what it reads in `node`.
    func make<T: Decodable>(_ type: T.Type, into node: ProbeNode, depth: Int) throws -> T {
        if let scalar = Self.scalar(T.self) {
            node.kind = .value(scalar.kind)
            guard let value = scalar.value as? T else { throw StoredShapeProbe.Unmakeable() }
            return value
        }
        if let optional = T.self as? any ShapeOptional.Type {
            let wrapped = ProbeNode()
            node.kind = .optional(wrapped)
            probe(optional.wrappedType, into: wrapped, depth: depth + 1)
            guard let none = optional.none as? T else { throw StoredShapeProbe.Unmakeable() }
            return none
        }
        if let collection = T.self as? any ShapeCollection.Type {
            let element = ProbeNode()
            node.kind = .list(element)
            probe(collection.elementType, into: element, depth: depth + 1)
            guard let empty = collection.empty as? T else { throw StoredShapeProbe.Unmakeable() }
            return empty
        }
        if let dictionary = T.self as? any ShapeDictionary.Type {
            let key = ProbeNode()
            let value = ProbeNode()
            node.kind = .map(key, value)
            probe(dictionary.keyType, into: key, depth: depth + 1)
            probe(dictionary.valueType, into: value, depth: depth + 1)
            guard let empty = dictionary.empty as? T else { throw StoredShapeProbe.Unmakeable() }
            return empty
        }
        if let cases = T.self as? any (CaseIterable & RawRepresentable).Type, let choice = Self.choice(cases) {
            node.kind = .choice(choice.kind, choice.cases)
            guard let first = choice.first as? T else { throw StoredShapeProbe.Unmakeable() }
            return first
        }
        let identity = ObjectIdentifier(T.self)
        guard depth < StoredShapeProbe.maxDepth, !making.contains(identity) else {
            node.kind = .unknown
            throw StoredShapeProbe.Unmakeable()
        }
        making.insert(identity)
        opened.append([])
        defer {
            making.remove(identity)
            opened.removeLast()
        }
        let value = try T(from: ProbeDecoder(run: self, node: node, depth: depth, codingPath: []))
        for container in opened.last ?? [] { container.markComplete() }
        return value
    }

    /// Records what `type` reads in `node`, whether or not a value of it can be made (an element, a wrapped value).
    func probe(_ type: any Decodable.Type, into node: ProbeNode, depth: Int) {
        func open<E: Decodable>(_ type: E.Type) { _ = try? make(E.self, into: node, depth: depth) }
        open(type)
    }

    /// Notes a keyed container opened on `node` by the type being made.
    func opened(_ node: ProbeNode) {
        guard !opened.isEmpty else { return }
        opened[opened.count - 1].append(node)
        if case .pending = node.kind { node.kind = .object([:], optional: [], complete: false) }
    }

    private static func scalar<T>(_ type: T.Type) -> (kind: String, value: Any)? {
        switch type {
        case is String.Type: return ("string", "")
        case is Bool.Type: return ("bool", false)
        case is Date.Type: return ("date", Date(timeIntervalSinceReferenceDate: 0))
        case is Data.Type: return ("data", Data())
        case is URL.Type: return ("url", URL(fileURLWithPath: "/"))
        case is UUID.Type: return ("uuid", UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case is Decimal.Type: return ("number", Decimal(0))
        default: break
        }
        if let integer = type as? any FixedWidthInteger.Type { return ("integer", integer.init(0)) }
        if let floating = type as? any BinaryFloatingPoint.Type { return ("number", floating.init(0)) }
        return nil
    }

    /// A raw-value enum's kind, its raw values (sorted) and its first case.
    private static func choice<C: CaseIterable & RawRepresentable>(_ type: C.Type) -> (
        kind: String, cases: [String], first: Any
    )? {
        guard let first = type.allCases.first else { return nil }
        let kind = scalar(C.RawValue.self)?.kind ?? "value"
        return (kind, type.allCases.map { "\($0.rawValue)" }.sorted(), first)
    }
}

/// Optionals, for the probe to reach the wrapped type.
protocol ShapeOptional {
    static var wrappedType: any Decodable.Type { get }
    static var none: Any { get }
}

/// Arrays, sets and contiguous arrays, for the probe to reach the element type.
protocol ShapeCollection {
    static var elementType: any Decodable.Type { get }
    static var empty: Any { get }
}

/// Dictionaries, for the probe to reach the key and value types.
protocol ShapeDictionary {
    static var keyType: any Decodable.Type { get }
    static var valueType: any Decodable.Type { get }
    static var empty: Any { get }
}

extension Optional: ShapeOptional where Wrapped: Decodable {
    static var wrappedType: any Decodable.Type { Wrapped.self }
    static var none: Any {
        // Not `Wrapped?.none`: inside this extension that names this very property, which then called itself.
        let absent: Wrapped? = nil
        return absent as Any
    }
}

extension Array: ShapeCollection where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var empty: Any { [Element]() }
}

extension ContiguousArray: ShapeCollection where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var empty: Any { ContiguousArray<Element>() }
}

extension Set: ShapeCollection where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var empty: Any { Set<Element>() }
}

extension Dictionary: ShapeDictionary where Key: Decodable, Value: Decodable {
    static var keyType: any Decodable.Type { Key.self }
    static var valueType: any Decodable.Type { Value.self }
    static var empty: Any { [Key: Value]() }
}
