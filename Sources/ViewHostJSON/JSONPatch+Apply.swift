/// Applying a patch: each operation in order on a JSON Pointer path, all or nothing (RFC 6902 section 4, RFC 6901).
extension JSONPatch {
    /// `document` with `operations` applied in order, all or nothing.
    /// - Throws: ``Failure`` naming the first operation that cannot be applied (a path that does not exist, a
    ///   failed `test`, an index out of range).
    public static func apply(_ operations: [Operation], to document: JSONValue) throws(Failure) -> JSONValue {
        var result = document
        for (index, operation) in operations.enumerated() {
            do throws(PointerFailure) {
                result = try apply(operation, to: result)
            } catch {
                throw Failure(index: index, reason: error.reason)
            }
        }
        return result
    }

    private struct PointerFailure: Error {
        let reason: String
    }

    private static func apply(_ operation: Operation, to document: JSONValue) throws(PointerFailure) -> JSONValue {
        switch operation {
        case .add(let path, let value):
            return try add(value, at: tokens(path), in: document)
        case .remove(let path):
            return try remove(at: tokens(path), in: document).document
        case .replace(let path, let value):
            let pointer = try tokens(path)
            _ = try member(at: pointer, in: document)
            return try changed(document, at: pointer[...]) { _ throws(PointerFailure) in value }
        case .move(let from, let path):
            guard from != path else { return document }
            guard !path.hasPrefix(from + "/") else {
                throw PointerFailure(reason: "cannot move '\(from)' into its own child '\(path)'")
            }
            let (rest, moved) = try remove(at: tokens(from), in: document)
            return try add(moved, at: tokens(path), in: rest)
        case .copy(let from, let path):
            return try add(member(at: tokens(from), in: document), at: tokens(path), in: document)
        case .test(let path, let expected):
            guard try member(at: tokens(path), in: document).isEquivalent(to: expected) else {
                throw PointerFailure(reason: "test failed at '\(path)'")
            }
            return document
        }
    }

    /// The reference tokens of a JSON Pointer (`/a~1b/0` → `a/b`, `0`).
    private static func tokens(_ pointer: String) throws(PointerFailure) -> [String] {
        guard !pointer.isEmpty else { return [] }
        guard pointer.hasPrefix("/") else { throw PointerFailure(reason: "'\(pointer)' is not a JSON Pointer") }
        var tokens: [String] = []
        for part in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            // `~1` is `/` and `~0` is `~`, in that order (RFC 6901 §4): `~01` is `~1`.
            var token = ""
            var escape = false
            for character in part {
                if escape {
                    guard character == "0" || character == "1" else {
                        throw PointerFailure(reason: "'\(pointer)' has '~' not followed by 0 or 1")
                    }
                    token.append(character == "0" ? "~" : "/")
                    escape = false
                } else if character == "~" {
                    escape = true
                } else {
                    token.append(character)
                }
            }
            guard !escape else { throw PointerFailure(reason: "'\(pointer)' ends in '~'") }
            tokens.append(token)
        }
        return tokens
    }

    /// A member name as a pointer token (`~` → `~0`, `/` → `~1`).
    static func escaped(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        var token = ""
        for character in name {
            switch character {
            case "~": token += "~0"
            case "/": token += "~1"
            default: token.append(character)
            }
        }
        return token
    }

    private static func member(at pointer: [String], in document: JSONValue) throws(PointerFailure) -> JSONValue {
        var current = document
        for token in pointer {
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.0 == token }) else {
                    throw PointerFailure(reason: "no member '\(token)'")
                }
                current = member.1
            case .array(let elements):
                let index = try arrayIndex(token, count: elements.count, allowingEnd: false)
                current = elements[index]
            default:
                throw PointerFailure(reason: "'\(token)' goes into a value that is neither an object nor an array")
            }
        }
        return current
    }

    /// `document` with the value at `pointer` replaced by `transform(old value)`.
    private static func changed(
        _ document: JSONValue, at pointer: ArraySlice<String>,
        _ transform: (JSONValue) throws(PointerFailure) -> JSONValue
    ) throws(PointerFailure) -> JSONValue {
        guard let token = pointer.first else { return try transform(document) }
        switch document {
        case .object(var members):
            guard let index = members.firstIndex(where: { $0.0 == token }) else {
                throw PointerFailure(reason: "no member '\(token)'")
            }
            members[index].1 = try changed(members[index].1, at: pointer.dropFirst(), transform)
            return .object(members)
        case .array(var elements):
            let index = try arrayIndex(token, count: elements.count, allowingEnd: false)
            elements[index] = try changed(elements[index], at: pointer.dropFirst(), transform)
            return .array(elements)
        default:
            throw PointerFailure(reason: "'\(token)' goes into a value that is neither an object nor an array")
        }
    }

    private static func add(_ value: JSONValue, at pointer: [String], in document: JSONValue) throws(PointerFailure)
        -> JSONValue
    {
        guard let last = pointer.last else { return value }
        return try changed(document, at: pointer.dropLast()[...]) { parent throws(PointerFailure) in
            switch parent {
            case .object(var members):
                if let index = members.firstIndex(where: { $0.0 == last }) {
                    members[index].1 = value
                } else {
                    members.append((last, value))
                }
                return .object(members)
            case .array(var elements):
                elements.insert(value, at: try arrayIndex(last, count: elements.count, allowingEnd: true))
                return .array(elements)
            default:
                throw PointerFailure(reason: "cannot add '\(last)' to a value that is neither an object nor an array")
            }
        }
    }

    private static func remove(at pointer: [String], in document: JSONValue) throws(PointerFailure) -> (
        document: JSONValue, removed: JSONValue
    ) {
        guard let last = pointer.last else { throw PointerFailure(reason: "cannot remove the whole document") }
        var removed = JSONValue.null
        let result = try changed(document, at: pointer.dropLast()[...]) { parent throws(PointerFailure) in
            switch parent {
            case .object(var members):
                guard let index = members.firstIndex(where: { $0.0 == last }) else {
                    throw PointerFailure(reason: "no member '\(last)'")
                }
                removed = members.remove(at: index).1
                return .object(members)
            case .array(var elements):
                removed = elements.remove(at: try arrayIndex(last, count: elements.count, allowingEnd: false))
                return .array(elements)
            default:
                throw PointerFailure(
                    reason: "cannot remove '\(last)' from a value that is neither an object nor an array")
            }
        }
        return (result, removed)
    }

    /// An array index token: digits without a leading zero, within the array (or `-` and the end, for `add`).
    private static func arrayIndex(_ token: String, count: Int, allowingEnd: Bool) throws(PointerFailure) -> Int {
        if token == "-", allowingEnd { return count }
        guard let first = token.utf8.first,
            token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            first != UInt8(ascii: "0") || token.utf8.count == 1, token.utf8.count <= 18, let index = Int(token)
        else { throw PointerFailure(reason: "'\(token)' is not an array index") }
        guard index < count || (allowingEnd && index == count) else {
            throw PointerFailure(reason: "index \(index) is out of range (the array has \(count) elements)")
        }
        return index
    }
}
