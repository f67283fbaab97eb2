import Foundation
import Synchronization
import ViewHostLocking

/// When a session was last used, who holds it open, and its end.
extension Session {
    /// Marks the session as used now (for the idle TTL).
    public func touch(at date: Date) {
        lastAccessMilliseconds.store(Int64(date.timeIntervalSince1970 * 1000), ordering: .relaxed)
    }

    /// When the session was last used, if that is later than the last time this was asked (the durable store is
    /// told of it now and then, not on every request).
    public func unpersistedAccess() -> Date? {
        let access = lastAccessMilliseconds.load(ordering: .relaxed)
        let persisted = persistedAccessMilliseconds.exchange(access, ordering: .relaxed)
        return access > persisted ? Date(timeIntervalSince1970: Double(access) / 1000) : nil
    }

    /// When the session was last used.
    public var lastAccess: Date {
        Date(timeIntervalSince1970: Double(lastAccessMilliseconds.load(ordering: .relaxed)) / 1000)
    }

    /// Holds the session open (an event stream or a long poll is waiting on it): it does not expire until every
    /// hold is released. Balance each call with ``release()``.
    public func hold() {
        holds.wrappingAdd(1, ordering: .relaxed)
    }

    /// Releases a hold; the session's idle time counts from now.
    public func release() {
        holds.wrappingSubtract(1, ordering: .relaxed)
        touch(at: environment.scheduler.now)
    }

    /// Whether an event stream or a long poll holds the session open.
    public var isHeld: Bool { holds.load(ordering: .relaxed) > 0 }

    /// Whether ``close(_:)`` was called.
    public var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// Marks the session as held by the durable store (its creation is committed).
    public func markStored() {
        storedFlag.store(true, ordering: .releasing)
    }

    /// Ends this copy if it is idle and everything of it is in the durable store, so memory can hold other
    /// sessions: its creation committed, nothing applied and waiting for its commit, no outside request, no timer
    /// fallen due and not fired yet, no event stream or long poll. A timer due later does not hold it: timers are
    /// stored, and the store lists the session once the next falls due (``SessionStorage/sessionsDue(before:limit:)``),
    /// to be loaded and fired then. It ends as `unavailable`: the next request for it loads it again, as it was.
    /// - Returns: Whether it ended (false: it is in use, or not stored yet).
    public func closeIfIdle() -> Bool {
        guard storedFlag.load(ordering: .acquiring), !isHeld else { return false }
        let now = environment.scheduler.now
        let closing = shell.withLock { shell -> (timers: [ScheduledTimer], sequence: Int)? in
            guard shell.end == nil, shell.pipeline.isSettled, shell.core.pendingRequests.isEmpty,
                (shell.core.nextTimerDue ?? .distantFuture) > now
            else { return nil }
            shell.end = .unavailable
            closedFlag.store(true, ordering: .releasing)
            defer { shell.timers.removeAll() }
            return (Array(shell.timers.values), shell.core.sequence)
        }
        guard let closing else { return false }
        for timer in closing.timers { timer.cancel() }
        stream.close(.unavailable, sequence: closing.sequence)
        return true
    }

    /// Ends the session: cancels its timers, and its stream tells waiters and observers why, once; closing twice does
    /// nothing the second time.
    public func close(_ end: SessionEnd) {
        let closing = shell.withLock { shell -> (timers: [ScheduledTimer], sequence: Int)? in
            guard !shell.closed else { return nil }
            shell.end = end
            closedFlag.store(true, ordering: .releasing)
            defer { shell.timers.removeAll() }
            return (Array(shell.timers.values), shell.core.sequence)
        }
        guard let closing else { return }
        for timer in closing.timers { timer.cancel() }
        stream.close(end, sequence: closing.sequence)
    }

    /// Stops the session because a value of it cannot be stored (``SessionEnd/unstorable``): nothing more is
    /// applied or written, its timers stop, its streams end, and every later request is answered with `value`
    /// (``SessionError/unstorable(_:)``). The environment is told once (``SessionEnvironment/onUnstorable``).
    func stop(because value: UnstorableValue) {
        let stopping = shell.withLock { shell -> (timers: [ScheduledTimer], sequence: Int)? in
            guard !shell.closed else { return nil }
            shell.end = .unstorable
            shell.unstorable = Unstorable(value)
            closedFlag.store(true, ordering: .releasing)
            defer { shell.timers.removeAll() }
            return (Array(shell.timers.values), shell.core.sequence)
        }
        guard let stopping else { return }
        for timer in stopping.timers { timer.cancel() }
        environment.onUnstorable?(id, value)
        stream.close(.unstorable, sequence: stopping.sequence)
    }

    /// What stopped the session, if a value of it could not be stored.
    public var unstorableValue: UnstorableValue? { shell.withLock { $0.unstorable?.value } }
}

/// What could not be stored, kept by a stopped session (a reference: the shell of every session carries one word
/// for it).
final class Unstorable: Sendable {
    let value: UnstorableValue

    init(_ value: UnstorableValue) {
        self.value = value
    }
}
