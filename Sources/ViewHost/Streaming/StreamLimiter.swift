import Synchronization
import ViewHostLocking
import ViewModelCore

/// Counts open SSE streams per session and in total, so one session cannot hold more than its share.
final class StreamLimiter: Sendable {
    enum Refusal {
        case perSession
        case total
    }

    let maxPerSession: Int
    let maxTotal: Int
    private let counts = Locked<(perSession: [SessionID: Int], total: Int)>(([:], 0))

    init(maxPerSession: Int, maxTotal: Int) {
        self.maxPerSession = maxPerSession
        self.maxTotal = maxTotal
    }

    /// Claims a stream for `session`; returns why not when it may not have one.
    func claim(_ session: SessionID) -> Refusal? {
        let refusal = counts.withLock { counts -> Refusal? in
            guard counts.total < maxTotal else { return .total }
            let current = counts.perSession[session, default: 0]
            guard current < maxPerSession else { return .perSession }
            counts.perSession[session] = current + 1
            counts.total += 1
            return nil
        }
        return refusal
    }

    /// Releases a stream of `session`.
    func release(_ session: SessionID) {
        counts.withLock { counts in
            counts.total -= 1
            let remaining = counts.perSession[session, default: 1] - 1
            counts.perSession[session] = remaining > 0 ? remaining : nil
        }
    }

    /// Open streams in total.
    var openCount: Int { counts.withLock { $0.total } }

    /// One claimed stream place, given back exactly once: by ``release()`` when the stream ends, or when the place
    /// is dropped without that (a stream body that never runs, such as the answer to a HEAD request).
    final class Place: Sendable {
        private let limiter: StreamLimiter
        private let session: SessionID
        private let released = Atomic<Bool>(false)
        private let onRelease: (@Sendable () -> Void)?

        /// Wraps a place already claimed with ``StreamLimiter/claim(_:)``; `onRelease` runs once when it is given
        /// back (a participant's presence ends with its last stream).
        init(limiter: StreamLimiter, session: SessionID, onRelease: (@Sendable () -> Void)? = nil) {
            self.limiter = limiter
            self.session = session
            self.onRelease = onRelease
        }

        deinit {
            release()
        }

        /// Gives the place back; later calls do nothing.
        func release() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            limiter.release(session)
            onRelease?()
        }
    }
}
