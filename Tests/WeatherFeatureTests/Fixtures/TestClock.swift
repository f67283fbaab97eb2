import Foundation
import ViewHostLocking

/// A wall clock that moves only when a test says so (for cache lifetimes).
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_442_400)) {
        current = Locked(start)
    }

    /// The current time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    func advance(seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
