#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The order objects' members are written in (sorted by their names' UTF-8 bytes), worked out once per coding-keys
/// type while one value is written: the values of one type (a chat's messages, say) bring the same names in the same
/// order nearly every time, so a later object of the type is checked against the names sorted before (an equality
/// test per name) instead of being sorted again. A type whose objects differ (a member left out when nil) is sorted
/// again, and the newest order kept.
struct KeyOrders {
    private var known: [ObjectIdentifier: (keys: [String], order: [Int])] = [:]

    /// Whether `members` are written as they are: each name after the one before by its UTF-8 bytes, none given
    /// twice. Most objects are (one member, or coding keys declared in alphabetical order), and then neither a
    /// sort nor a lookup of the type's order is needed: one comparison per member.
    static func isOrdered(_ members: [(key: String, slot: JSONNode.Slot)]) -> Bool {
        guard members.count > 1 else { return true }
        for index in 1..<members.count where compare(members[index - 1].key, members[index].key) >= 0 {
            return false
        }
        return true
    }

    /// The indices of `members` in the order they are written: by name, and for a name given twice, in the order
    /// given (the writer keeps the last).
    /// - Parameters:
    ///   - members: The object's members, in the order encoded.
    ///   - type: The coding-keys type the object was encoded with, if known.
    /// - Returns: The indices of `members`, in writing order.
    mutating func order(of members: [(key: String, slot: JSONNode.Slot)], type: ObjectIdentifier?) -> [Int] {
        if let type, let cached = known[type], cached.keys.count == members.count,
            zip(cached.keys, members).allSatisfy({ $0 == $1.key })
        {
            return cached.order
        }
        let order = Self.sorted(members)
        if let type { known[type] = (members.map(\.key), order) }
        return order
    }

    private static func sorted(_ members: [(key: String, slot: JSONNode.Slot)]) -> [Int] {
        members.indices.sorted { left, right in
            switch compare(members[left].key, members[right].key) {
            case 0: left < right
            case let difference: difference < 0
            }
        }
    }

    /// `a` against `b` by their UTF-8 bytes: negative, zero or positive.
    static func compare(_ a: String, _ b: String) -> Int {
        let fast = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right -> Int in
                let common = min(left.count, right.count)
                if common > 0 {
                    let result = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if result != 0 { return Int(result) }
                }
                return left.count - right.count
            }
        }
        if let result = fast ?? nil { return result }
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }
}
