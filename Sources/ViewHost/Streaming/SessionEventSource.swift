import HTTPCore
import ViewHostLocking
import ViewModelCore

/// One `GET /v1/sessions/{id}/stream` body: the session's changes as server-sent events, pulled by the
/// connection (HTTPCore's ``HTTPBodySource``), so a stream costs no task and no wake-up of its own per change.
///
/// The session's observer only marks features dirty and signals; the connection then asks ``next(idle:)`` on its
/// loop, which writes the newest cached snapshot of each dirty feature. However slow the reader, a stream holds
/// at most one pending entry per feature (newer changes collapse into it), so a stalled client never grows
/// server memory: the connection stops asking while its backlog is over the low-water mark, and closes a write
/// that stalls past the write timeout.
final class SessionEventSource: HTTPBodySource {
    private struct State {
        var dirty: Set<String> = []
        var trigger: HTTPBodyTrigger?
        var observer: Int?
        var started = false
        var finished = false
        /// Why the session ended, once it has; the final `ended` event is written once.
        var end: SessionEnd?
        var endWritten = false
        /// Whether ``start(_:)`` holds the session open (released in ``finish()``).
        var holding = false
        /// feature → sequence of the newest change written.
        var written: [String: Int] = [:]
        /// feature → the newest snapshot written, in patch mode (the base of the next patch; the reader's own view
        /// for a feature it has one of, so the patch runs between two of its own).
        var sent: [String: EncodedSnapshot] = [:]
        /// feature → the version written, for the features read as the reader's own view (made for each read, so a
        /// version written already is not made again when a change is marked twice).
        var ownVersions: [String: Int] = [:]
        /// The shared session's presence frames (``PresenceBoard``), and the number of the last one written.
        var presence: PresenceBoard?
        var presenceWritten = 0
    }

    /// What a pull finds under the lock.
    private enum Pull {
        /// The session ended: the final event is written once (`write`), and the trigger asked again after it.
        case ending(SessionEnd, write: Bool, trigger: HTTPBodyTrigger?)
        /// The features marked changed since the last pull; `first` for the stream's first pull.
        case changes(first: Bool, dirty: Set<String>)
    }

    let idleInterval: Duration?
    private let session: Session
    /// The features this stream carries.
    let features: Set<String>
    private let lastEventID: Int
    /// Whether changes after a feature's first snapshot go as patches (`?patches=1`).
    private let patches: Bool
    /// The features read as the reader's own view, with its viewer (a member, of features whose snapshot depends on
    /// its viewer); every other feature is the snapshot every stream of the session shares.
    private let viewers: [String: Viewer]
    private let place: StreamLimiter.Place
    private let keepAlive: @Sendable () -> Void
    private let state = Locked(State())

    /// - Parameters:
    ///   - session: The session whose changes to send.
    ///   - features: The features to carry.
    ///   - lastEventID: The client's `Last-Event-ID` (0: none): on start only the features changed since are sent.
    ///   - patches: Whether a feature's changes after its first snapshot go as patches from the version sent last.
    ///   - viewers: The features the reader gets a view of its own of, with its viewer.
    ///   - heartbeat: After this long without a write, a comment line is sent.
    ///   - place: The stream's place in the limits, given back when the body ends (or when it never starts).
    ///   - keepAlive: Called after each write: the client is reading, so the session is in use.
    init(
        session: Session, features: Set<String>, lastEventID: Int, patches: Bool = false,
        viewers: [String: Viewer] = [:], heartbeat: Duration, place: StreamLimiter.Place,
        keepAlive: @escaping @Sendable () -> Void
    ) {
        self.session = session
        self.features = features
        self.lastEventID = lastEventID
        self.patches = patches
        self.viewers = viewers
        self.idleInterval = heartbeat
        self.place = place
        self.keepAlive = keepAlive
    }

    func start(_ trigger: HTTPBodyTrigger) {
        session.hold()
        // Held strongly: `finish()` (which the connection calls once, whatever ends the body) or the session's end
        // removes the observer. A weak reference cost a load of its side table, cold in the cache, for every stream
        // of every change (0.6 % of a burst's samples), and a side table per stream.
        let observer = session.stream.addObserver { change in
            if let end = change.end {
                self.sessionEnded(end)
            } else {
                self.markChanged(change.versions.keys)
            }
        }
        let finished = state.withLock { state in
            state.trigger = trigger
            state.observer = observer
            state.holding = true
            // The session ended before the stream could listen (nil observer): it says so at once.
            if observer == nil, state.end == nil { state.end = session.stream.end ?? .deleted }
            return state.finished
        }
        if let observer, finished { session.stream.removeObserver(observer) }
        if observer == nil { trigger.signal() }
    }

    /// Notes that `changed` features have newer snapshots (called by the session's observer, on any thread).
    func markChanged(_ changed: some Sequence<String>) {
        let trigger = state.withLock { state -> HTTPBodyTrigger? in
            var marked = false
            for feature in changed where features.contains(feature) {
                state.dirty.insert(feature)
                marked = true
            }
            return marked ? state.trigger : nil
        }
        trigger?.signal()
    }

    /// Writes the frames `board` is given from now on (`event: presence`, not part of any version: no `id:`).
    func follow(_ board: PresenceBoard) {
        let latest = board.latest
        state.withLock { state in
            state.presence = board
            state.presenceWritten = latest
        }
    }

    /// The board this stream follows has a newer frame: it goes with the next write (only each participant's newest
    /// is written, however many came meanwhile).
    func presenceChanged() {
        state.withLock { $0.trigger }?.signal()
    }

    /// Ends the stream for its reader alone, as if its session had ended so (a participant removed from a shared
    /// session: `.deleted`, the session is gone for it): the final `ended` event, then the end of the body.
    func end(_ end: SessionEnd) {
        sessionEnded(end)
    }

    /// The session was deleted, expired or the server stops: the next pull writes the final `ended` event, and the
    /// one after ends the body.
    private func sessionEnded(_ end: SessionEnd) {
        state.withLock { state -> HTTPBodyTrigger? in
            state.end = state.end ?? end
            return state.trigger
        }?.signal()
    }

    func next(idle: Bool) -> [UInt8]? {
        // One look under the lock: the session's end (its observer's last call brings it, and `start` reads it when
        // the session had ended before), or what changed since the last pull.
        let pull = state.withLock { state -> Pull in
            if let end = state.end {
                defer { state.endWritten = true }
                return .ending(end, write: !state.endWritten, trigger: state.trigger)
            }
            defer {
                state.started = true
                state.dirty.removeAll()
            }
            return .changes(first: !state.started, dirty: state.dirty)
        }
        let first: Bool
        let dirty: Set<String>
        switch pull {
        case .ending(let end, let write, let trigger):
            // After a storage failure the session was not ended: the client reconnects (to its reloaded value).
            guard write, end != .unavailable else { return nil }
            // Asked again at once, to end the body right after the final event.
            trigger?.signal()
            return Array("event: ended\ndata: {\"reason\":\"\(end.rawValue)\"}\n\n".utf8)
        case .changes(let isFirst, let changed):
            first = isFirst
            dirty = changed
        }
        var output: [UInt8] = []
        var wanted = dirty
        if first {
            // The reconnection delay the client should wait, once, then the snapshots it is missing. One second: a
            // stream ended by a node that stops (a deploy) is back within 2 s, before a page says it reconnects.
            output.append(contentsOf: "retry: 1000\n\n".utf8)
            if lastEventID > 0, lastEventID <= session.sequence {
                // What the client saw is never sent again, even for a feature marked changed meanwhile: while a
                // change is applied but not durable, the newest snapshot to send is the durable one, which the
                // client may hold (seen in a run under load: a stream resumed after a restart got it again).
                state.withLock { state in
                    for feature in features where state.written[feature] == nil { state.written[feature] = lastEventID }
                }
            }
            wanted.formUnion(session.features(changedAfter: lastEventID).map(\.feature).filter(features.contains))
        }
        appendEvents(for: wanted, to: &output)
        let (board, written) = state.withLock { ($0.presence, $0.presenceWritten) }
        if let board {
            let (frames, latest) = board.frames(after: written)
            state.withLock { $0.presenceWritten = latest }
            output.append(contentsOf: frames)
        }
        if output.isEmpty, idle { output.append(contentsOf: ": keepalive\n\n".utf8) }
        if !output.isEmpty { keepAlive() }
        return output
    }

    func finish() {
        let (observer, holding) = state.withLock { state -> (Int?, Bool) in
            state.finished = true
            state.trigger = nil
            defer {
                state.observer = nil
                state.holding = false
            }
            return (state.observer, state.holding)
        }
        if let observer { session.stream.removeObserver(observer) }
        if holding { session.release() }
        place.release()
    }

    /// Appends the newest snapshot of each feature as one event (in patch mode, after the first, the patch from the
    /// snapshot sent before as a `FEATURE.patch` event), in the order they changed (features of one sequence, such
    /// as the untouched ones at 0, in the session's order), skipping a feature whose newest change this stream has
    /// already written. Without that check a change was sometimes sent twice: the stream may write a version before
    /// the session's observer call for that same version arrives (observers run after the session's lock is
    /// released), and that call marks it dirty again.
    private func appendEvents(for features: Set<String>, to output: inout [UInt8]) {
        guard !features.isEmpty else { return }
        var events: [(sequence: Int, feature: String, snapshot: EncodedSnapshot)] = []
        // In the session's order, not the set's (which differs from process to process); the sort below is stable.
        for feature in session.featureNames where features.contains(feature) {
            let viewer = viewers[feature]
            if viewer != nil, let version = session.version(of: feature),
                let written = state.withLock({ $0.ownVersions[feature] }), written >= version
            {
                continue
            }
            // A change not durable yet is skipped here; its commit signals the stream again.
            guard
                let (_, sequence, snapshot) = SnapshotRoutes.encodedSnapshot(
                    of: session, feature: feature, viewer: viewer
                ).ready
            else { continue }
            events.append((sequence, feature, snapshot))
        }
        events.sort { $0.sequence < $1.sequence }
        let patches = patches
        let toWrite = state.withLock { state in
            events.compactMap {
                event -> (sequence: Int, feature: String, snapshot: EncodedSnapshot, base: EncodedSnapshot?)? in
                if let last = state.written[event.feature], last >= event.sequence { return nil }
                state.written[event.feature] = event.sequence
                if event.snapshot.viewer != nil { state.ownVersions[event.feature] = event.snapshot.version }
                guard patches else { return (event.sequence, event.feature, event.snapshot, nil) }
                let base = state.sent[event.feature]
                state.sent[event.feature] = event.snapshot
                return (event.sequence, event.feature, event.snapshot, base)
            }
        }
        for event in toWrite {
            if let base = event.base, base.version < event.snapshot.version {
                // The patch from the version this stream sent last; its frame names both, so a client that holds
                // another version sees the gap and reads the whole snapshot instead.
                if let patch = event.snapshot.patch(from: base), patch.count < event.snapshot.body.count {
                    output.append(contentsOf: "id: \(event.sequence)\nevent: \(event.feature).patch\ndata: ".utf8)
                    output.append(
                        contentsOf: "{\"base\":\(base.version),\"feature\":\"\(event.feature)\",\"patch\":".utf8)
                    output.append(contentsOf: patch)
                    output.append(contentsOf: ",\"version\":\(event.snapshot.version)}\n\n".utf8)
                    continue
                }
            }
            let frame = event.snapshot.eventFrame(feature: event.feature, sequence: event.sequence)
            // Most pulls send one event: its shared frame goes as it is, not copied.
            if output.isEmpty { output = frame } else { output.append(contentsOf: frame) }
        }
    }
}
