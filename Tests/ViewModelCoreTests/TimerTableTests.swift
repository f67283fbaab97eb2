import Foundation
import Testing

@testable import ViewModelCore

/// A slot's pending timers: the earliest due is always the smallest of those held, through inserts, replacements
/// and removals in any order; copies never see each other's changes; an emptied table holds nothing.
struct TimerTableTests {
    let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    func timer(_ id: Int, in seconds: Double) -> PendingTimer<Int> {
        PendingTimer(id: id, dueAt: start.addingTimeInterval(seconds), event: id, source: .timer, causedBy: 1)
    }

    @Test func theEarliestDueIsTheSmallestHeldWhateverTheOrder() {
        var generator = SystemRandomNumberGenerator()
        var table = TimerTable<Int>()
        var model: [Int: PendingTimer<Int>] = [:]
        for step in 0..<2_000 {
            let id = Int.random(in: 0..<200, using: &generator)
            if Bool.random(using: &generator) {
                // Ties on the instant are common (one step schedules several timers at once).
                let added = timer(id, in: Double(Int.random(in: 0..<50, using: &generator)))
                table.insert(added)
                model[id] = added
            } else {
                #expect(table.remove(id) == model.removeValue(forKey: id), "step \(step)")
            }
            #expect(table.earliestDue == model.values.map(\.dueAt).min(), "step \(step)")
            #expect(table.count == model.count)
            #expect(table.byID == model)
            #expect(table.inDueOrder == model.values.sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) })
        }
        for id in Array(model.keys) { _ = table.remove(id) }
        #expect(table.isEmpty && table.earliestDue == nil && table.byID.isEmpty)
        #expect(table == TimerTable())
    }

    @Test func aCopyKeepsWhatItHeldWhenTheOriginalChanges() {
        var table = TimerTable([1: timer(1, in: 5), 2: timer(2, in: 3)])
        let copy = table
        table.insert(timer(3, in: 1))
        _ = table.remove(2)
        table.insert(timer(1, in: 9))  // replaces timer 1
        #expect(copy.byID == [1: timer(1, in: 5), 2: timer(2, in: 3)])
        #expect(copy.earliestDue == start.addingTimeInterval(3))
        #expect(table.byID == [1: timer(1, in: 9), 3: timer(3, in: 1)])
        #expect(table.earliestDue == start.addingTimeInterval(1))
        #expect(table != copy)
        #expect(TimerTable(table.byID) == table)
        #expect(table.remove(42) == nil)
    }
}
