import Dispatch
import ViewHostLocking

/// Parts of a long job made one step ahead of their use, on a thread of their own: while the caller works on one
/// part, the next is made. An export reads and decodes the next page of records while it replays and writes this
/// one; an import parses and decodes the next lines while it replays these (each about half of the work, so on two
/// cores the job takes about half as long).
///
/// Parts are made one at a time, in order, each after the one before was taken: `make` keeps its own place.
/// Every wait is for work that is running (a part being made), never for another caller.
public final class Ahead<Part: Sendable>: Sendable {
    private let make: @Sendable () throws -> Part?
    private let made = Locked<Result<Part?, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)
    /// Whether the last part was taken (or making one failed): nothing more is made, nor waited for.
    private let finished = Locked(false)

    /// Starts making the first part. `make` returns nil after the last.
    public init(_ make: @escaping @Sendable () throws -> Part?) {
        self.make = make
        start()
    }

    private func start() {
        DispatchQueue.global().async { [self] in
            let result = Result { try make() }
            made.withLock { $0 = result }
            ready.signal()
        }
    }

    /// The next part (waiting while it is made), and the one after it started; nil after the last.
    /// - Throws: What `make` threw (then no more is made, and later calls return nil).
    public func next() throws -> Part? {
        guard !finished.withLock({ $0 }) else { return nil }
        ready.wait()
        let result = made.withLock { made -> Result<Part?, any Error> in
            defer { made = nil }
            return made!
        }
        if case .success(.some) = result { start() } else { finished.withLock { $0 = true } }
        return try result.get()
    }
}
