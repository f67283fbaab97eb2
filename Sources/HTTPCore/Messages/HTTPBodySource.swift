import Synchronization

/// Content produced over time and *pulled* by the connection, for long-lived bodies such as server-sent events.
///
/// Unlike ``HTTPBodyStream``, no task runs per response and no continuation is resumed per write: the source
/// calls ``HTTPBodyTrigger/signal()`` from any thread when it has something new, and the connection calls
/// ``next(idle:)`` on its event loop to collect it. Signals coalesce (many signals may bring one call), and
/// while the client reads slower than the source produces (the unsent backlog is over the low-water mark) the
/// connection does not ask at all, so the source, not the server, decides what a slow reader skips.
///
/// Every method is called on the connection's event loop, one at a time, so an implementation needs no locking
/// of its own for state only these methods touch. None may block.
public protocol HTTPBodySource: AnyObject, Sendable {
    /// The longest the body may stay silent: after this long without a write, ``next(idle:)`` is asked with
    /// `idle` true (for a heartbeat). `nil`: never.
    var idleInterval: Duration? { get }

    /// Called once, first, when the body starts. Keep `trigger` to signal new content; the connection asks
    /// for the first part right after this returns.
    func start(_ trigger: HTTPBodyTrigger)

    /// Everything the body has ready now. The connection asks again only after the next signal (a source with
    /// more to give than it wants to hand over at once signals from here), or for a heartbeat.
    /// - Parameter idle: True when nothing was written for ``idleInterval`` (and no signal is pending).
    /// - Returns: Bytes to send (one chunk; empty for nothing now), or `nil` to end the body.
    func next(idle: Bool) -> [UInt8]?

    /// Called once when the body is over, whatever the reason (`next` returned nil, the client went away, the
    /// server is draining): release what the body holds.
    func finish()
}

/// A source's way to tell its connection that new content is ready; safe to call from any thread, any number of
/// times: calls between two ``HTTPBodySource/next(idle:)`` collapse into one.
public final class HTTPBodyTrigger: Sendable {
    private let queued = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    private let pull: @Sendable () -> Void

    init(pull: @escaping @Sendable () -> Void) {
        self.pull = pull
    }

    /// Asks the connection to call ``HTTPBodySource/next(idle:)`` soon.
    public func signal() {
        guard !closed.load(ordering: .acquiring), !queued.exchange(true, ordering: .acquiringAndReleasing) else {
            return
        }
        pull()
    }

    /// Whether the body is over, so signalling is pointless.
    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Called on the loop just before a pull, so a signal that comes during it queues another.
    func willPull() {
        queued.store(false, ordering: .releasing)
    }

    func close() {
        closed.store(true, ordering: .releasing)
    }
}
