import Dispatch
import ViewHostLocking

/// Parts of a long job made one step ahead of their use, on a thread of their own: while the caller works on one
/// part, the next is made. An export reads and decodes the next page of records while it replays and writes this
/// one (each about half of the work: with a second core free, an export of 10,000 inputs took 0.15 s instead of
/// 0.22 s, BENCHMARKS.md). An import shares its parts between two threads instead (`SharedParts`).
///
/// Parts are made one at a time, in order, each after the one before was taken: `make` keeps its own place. A part
/// the caller is done with can be handed back (``done(with:)``), and the thread that makes the next part frees it:
/// freed by the caller, an export's pages went back to the malloc arenas of the threads that made them, under their
/// locks, while those threads made the next (as an import's did, `SharedParts`).
/// Every wait is for work that is running (a part being made), never for another caller, and is bounded
/// (``limit``): a part not made by then is reported as ``Stalled`` instead of waited for.
public final class Ahead<Part: Sendable>: Sendable {
    /// A part that was not made within ``limit``.
    public struct Stalled: Error, CustomStringConvertible {
        /// One line naming the bound, for the log.
        public var description: String { "a part of the work was not made within \(Ahead.limit)" }
    }

    /// The longest wait for one part (a page of 256 records, or 128 lines, takes milliseconds).
    public static var limit: Duration { .seconds(300) }

    private let make: @Sendable () throws -> Part?
    private let made = Locked<Result<Part?, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)
    /// Whether the last part was taken (or making one failed): nothing more is made, nor waited for.
    private let finished = Locked(false)
    /// Parts the caller is done with, for the thread that makes the next part to free.
    private let spent = Locked<[Part]>([])

    /// Starts making the first part. `make` returns nil after the last.
    public init(_ make: @escaping @Sendable () throws -> Part?) {
        self.make = make
        start()
    }

    private func start() {
        DispatchQueue.global().async { [self] in
            let old = spent.withLock { spent in
                defer { spent = [] }
                return spent
            }
            _ = consume old  // the last reference: freed here, not on the caller's thread
            let result = Result { try make() }
            made.withLock { $0 = result }
            ready.signal()
        }
    }

    /// Hands back `part`, one this returned that the caller is done with: it is freed by the thread that makes the
    /// next part (or with this, after the last).
    public func done(with part: consuming Part) {
        let part = consume part
        spent.withLock { $0.append(part) }
    }

    /// The next part (waiting while it is made), and the one after it started; nil after the last.
    /// - Throws: What `make` threw, or ``Stalled`` (then no more is made, and later calls return nil).
    public func next() throws -> Part? {
        guard !finished.withLock({ $0 }) else { return nil }
        guard ready.wait(timeout: .now() + .seconds(Int(Self.limit.components.seconds))) == .success else {
            finished.withLock { $0 = true }
            throw Stalled()
        }
        let result = made.withLock { made -> Result<Part?, any Error> in
            defer { made = nil }
            return made!
        }
        if case .success(.some) = result { start() } else { finished.withLock { $0 = true } }
        return try result.get()
    }
}
