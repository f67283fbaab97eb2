import Foundation

/// A feature slot's pending timers: by number (firing or cancelling one is O(1)), and by due instant, so the
/// earliest is known without a pass over them. A store keeps that instant with every input that starts or cancels
/// a timer, under the session's lock, and a chat whose partner is flooded holds hundreds: a pass copying each timer
/// out of the table was 15 % of a SQLite server's CPU under the chat send load.
///
/// Both live in one box, copied on write, and an empty table has none: most sessions sit idle with no timer
/// pending, and a slot is copied into every checkpoint of its session. Two tables are equal when they hold the same
/// timers; the stored shape is the table by number, as before.
struct TimerTable<Event: Codable & Equatable & Sendable>: Sendable {
    /// A timer's place in due order: its instant, then its number.
    private struct Due: Comparable {
        let at: Date
        let id: Int

        static func < (lhs: Due, rhs: Due) -> Bool { (lhs.at, lhs.id) < (rhs.at, rhs.id) }
    }

    /// Mutated only while uniquely referenced (``change(_:)``), so shared boxes never change.
    private final class Box: @unchecked Sendable {
        var byID: [Int: PendingTimer<Event>]
        /// Every timer of `byID`, in due order.
        var dues: [Due]

        init(byID: [Int: PendingTimer<Event>], dues: [Due]) {
            self.byID = byID
            self.dues = dues
        }
    }

    private var box: Box?

    init() {}

    /// The table of `timers`, by number (a stored slot's).
    init(_ timers: [Int: PendingTimer<Event>]) {
        guard !timers.isEmpty else { return }
        box = Box(byID: timers, dues: timers.values.map { Due(at: $0.dueAt, id: $0.id) }.sorted())
    }

    var isEmpty: Bool { box == nil }
    var count: Int { box?.byID.count ?? 0 }
    /// The timers, in no particular order.
    var values: Dictionary<Int, PendingTimer<Event>>.Values { (box?.byID ?? [:]).values }
    /// The table by number: its stored shape.
    var byID: [Int: PendingTimer<Event>] { box?.byID ?? [:] }
    /// When the earliest timer falls due; nil when none is pending.
    var earliestDue: Date? { box?.dues.first?.at }
    /// The timers, earliest first (ties by number).
    var inDueOrder: [PendingTimer<Event>] {
        guard let box else { return [] }
        return box.dues.map { box.byID[$0.id]! }
    }

    subscript(id: Int) -> PendingTimer<Event>? { box?.byID[id] }

    /// Adds `timer`, or puts it in place of the timer of the same number.
    mutating func insert(_ timer: PendingTimer<Event>) {
        change { box in
            if let old = box.byID.updateValue(timer, forKey: timer.id) {
                box.dues.remove(at: Self.index(of: old, in: box.dues))
            }
            let due = Due(at: timer.dueAt, id: timer.id)
            box.dues.insert(due, at: Self.insertionIndex(of: due, in: box.dues))
        }
    }

    /// Takes timer `id` out, if it is pending; an emptied table gives its box back.
    mutating func remove(_ id: Int) -> PendingTimer<Event>? {
        guard box?.byID[id] != nil else { return nil }
        let removed = change { box -> PendingTimer<Event>? in
            guard let timer = box.byID.removeValue(forKey: id) else { return nil }
            box.dues.remove(at: Self.index(of: timer, in: box.dues))
            return timer
        }
        if box?.byID.isEmpty == true { box = nil }
        return removed
    }

    /// Runs `body` on a box of this table's own: made when there is none, copied when another table shares it.
    private mutating func change<Result>(_ body: (Box) -> Result) -> Result {
        if box == nil {
            box = Box(byID: [:], dues: [])
        } else if !isKnownUniquelyReferenced(&box) {
            box = Box(byID: box!.byID, dues: box!.dues)
        }
        return body(box!)
    }

    /// Where `due` goes in `dues` (after every smaller entry).
    private static func insertionIndex(of due: Due, in dues: [Due]) -> Int {
        var low = 0
        var high = dues.count
        while low < high {
            let middle = (low + high) / 2
            if dues[middle] < due { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where `timer`'s entry is in `dues` (it is there: every timer of the table has one).
    private static func index(of timer: PendingTimer<Event>, in dues: [Due]) -> Int {
        let index = insertionIndex(of: Due(at: timer.dueAt, id: timer.id), in: dues)
        precondition(
            index < dues.count && dues[index].id == timer.id, "timer \(timer.id) is missing from its due order")
        return index
    }
}

extension TimerTable: Equatable {
    static func == (lhs: TimerTable, rhs: TimerTable) -> Bool {
        lhs.box === rhs.box || lhs.byID == rhs.byID
    }
}
