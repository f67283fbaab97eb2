import Synchronization
import ViewHostLocking
import ViewModelCore

/// Counts open SSE streams per member of a shared session, per session and in total, so one member cannot hold more
/// than its share of its session's, nor one session more than its share of the server's (the owner is bounded by
/// its session's share alone).
final class StreamLimiter: Sendable {
    enum Refusal {
        case perParticipant
        case perSession
        case total
    }

    private struct Counts {
        var perSession: [SessionID: Int] = [:]
        /// By session, then participant (only while it has a stream open).
        var perParticipant: [SessionID: [String: Int]] = [:]
        var total = 0
    }

    let maxPerSession: Int
    let maxPerParticipant: Int
    let maxTotal: Int
    private let counts = Locked(Counts())

    init(maxPerSession: Int, maxTotal: Int, maxPerParticipant: Int? = nil) {
        self.maxPerSession = maxPerSession
        self.maxPerParticipant = maxPerParticipant ?? maxPerSession
        self.maxTotal = maxTotal
    }

    /// Claims a stream for `participant` (``Participant/ownerID`` for the owner, bounded by the session's share
    /// alone) of `session`; returns why not when it may not have one.
    func claim(_ session: SessionID, participant: String = Participant.ownerID) -> Refusal? {
        let refusal = counts.withLock { counts -> Refusal? in
            guard counts.total < maxTotal else { return .total }
            let current = counts.perSession[session, default: 0]
            guard current < maxPerSession else { return .perSession }
            let own = counts.perParticipant[session]?[participant] ?? 0
            // The owner is bounded by the session's share alone, as before sessions were shared.
            guard own < maxPerParticipant || participant == Participant.ownerID else { return .perParticipant }
            counts.perSession[session] = current + 1
            counts.perParticipant[session, default: [:]][participant] = own + 1
            counts.total += 1
            return nil
        }
        return refusal
    }

    /// Releases a stream of `participant` of `session`.
    func release(_ session: SessionID, participant: String = Participant.ownerID) {
        counts.withLock { counts in
            counts.total -= 1
            let remaining = counts.perSession[session, default: 1] - 1
            counts.perSession[session] = remaining > 0 ? remaining : nil
            let own = (counts.perParticipant[session]?[participant] ?? 1) - 1
            counts.perParticipant[session]?[participant] = own > 0 ? own : nil
            if counts.perParticipant[session]?.isEmpty == true { counts.perParticipant[session] = nil }
        }
    }

    /// Open streams in total.
    var openCount: Int { counts.withLock { $0.total } }

    /// One claimed stream place, given back exactly once: by ``release()`` when the stream ends, or when the place
    /// is dropped without that (a stream body that never runs, such as the answer to a HEAD request).
    final class Place: Sendable {
        private let limiter: StreamLimiter
        private let session: SessionID
        private let participant: String
        private let released = Atomic<Bool>(false)
        private let onRelease: (@Sendable () -> Void)?

        /// Wraps a place already claimed with ``StreamLimiter/claim(_:participant:)``; `onRelease` runs once when
        /// it is given back (a participant's presence ends with its last stream).
        init(
            limiter: StreamLimiter, session: SessionID, participant: String = Participant.ownerID,
            onRelease: (@Sendable () -> Void)? = nil
        ) {
            self.limiter = limiter
            self.session = session
            self.participant = participant
            self.onRelease = onRelease
        }

        deinit {
            release()
        }

        /// Gives the place back; later calls do nothing.
        func release() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            limiter.release(session, participant: participant)
            onRelease?()
        }
    }
}
