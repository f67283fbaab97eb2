extension Array {
    /// Below this many elements, ``reserveForOneMore(atMost:)`` grows an array by one.
    static var exactGrowthLimit: Int { 16 }

    /// Makes room for one more element, when the array is full: room for exactly one more while it holds fewer than
    /// ``exactGrowthLimit`` (most of a session's small lists stay small, and an array grown by doubling holds up to a
    /// third more than its elements), twice its count beyond that, never more than `limit`.
    mutating func reserveForOneMore(atMost limit: Int = .max) {
        guard count == capacity else { return }
        reserveCapacity(Swift.min(limit, count < Self.exactGrowthLimit ? count + 1 : count * 2))
    }
}
