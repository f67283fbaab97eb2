import ViewHostLocking

/// One shared session's presence frames on this node (`event: presence`), the newest per participant, each numbered
/// in the order they were posted; every stream of the session keeps only the number it wrote up to.
///
/// A frame is made once and kept once for the session, not queued on each stream: when N participants come online
/// one after another, each of the N streams would otherwise hold up to N pending frames until its reader caught up
/// (N² entries at 1,000 participants), and a stream that reads late writes each participant's newest frame once.
final class PresenceBoard: Sendable {
    private struct State {
        var latest = 0
        var frames: [String: (number: Int, frame: [UInt8])] = [:]
    }

    private let state = Locked(State())

    /// The number of the newest frame posted (0: none yet): a stream opened now writes only what comes after it.
    var latest: Int { state.withLock { $0.latest } }

    /// Keeps `frame` as `participant`'s newest, replacing the one before.
    func post(_ frame: [UInt8], of participant: String) {
        state.withLock { state in
            state.latest += 1
            state.frames[participant] = (state.latest, frame)
        }
    }

    /// The frames posted after `number`, in the order they were posted, and the newest number: what a stream that
    /// wrote up to `number` writes next.
    func frames(after number: Int) -> (bytes: [UInt8], latest: Int) {
        state.withLock { state in
            guard state.latest > number else { return ([], state.latest) }
            var bytes: [UInt8] = []
            for item in state.frames.values.filter({ $0.number > number }).sorted(by: { $0.number < $1.number }) {
                bytes.append(contentsOf: item.frame)
            }
            return (bytes, state.latest)
        }
    }
}
