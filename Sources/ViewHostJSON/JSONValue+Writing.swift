extension JSONValue {
    /// The value as compact JSON text, members in their order. A number that is a whole number of at most 2^53 in
    /// magnitude is written without a fraction (`3`, not `3.0`), as JSON writers of integers write it.
    public var json: [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    /// Whether `self` and `other` are the same JSON value: objects with the same members in any order (RFC 8259
    /// leaves their order meaningless), arrays element by element, numbers by value.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { name, value in
                b.first { $0.0 == name }.map { value.isEquivalent(to: $0.1) } ?? false
            }
        default:
            return self == other
        }
    }
}

extension JSONWriter {
    /// Writes `value`, members in their order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): boolean(flag)
        case .number(let number):
            if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
                integer(Int(number))
            } else {
                self.number(number)
            }
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }
}
