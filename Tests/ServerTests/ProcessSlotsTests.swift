import Testing
import TestSupport

/// The bound on child processes: first come, first served, and a waiter that is cancelled (its test's time limit)
/// stops waiting instead of hanging the run, without taking or losing a slot.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ProcessSlotsTests {
    @Test func aCancelledWaiterThrowsAndTheSlotGoesToTheNextOne() async throws {
        let slots = ProcessSlots(count: 1)
        try await slots.acquire()
        let cancelled = Task { try await slots.acquire() }
        let next = Task { try await slots.acquire() }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        slots.release()
        try await next.value  // the one slot went to the waiter still waiting
        slots.release()
        try await slots.acquire()  // and came back: nothing was lost to the cancelled waiter
        slots.release()
    }

    @Test func aTaskCancelledBeforeItAsksNeverWaits() async throws {
        let slots = ProcessSlots(count: 1)
        try await slots.acquire()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await slots.acquire()
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        slots.release()
    }
}
