import Foundation

/// A shared session's invitations and participants as the value records them: an entry in the data-flow log, numbered
/// as every step is (``SessionInput/participation(at:kind:id:)``).
extension SessionCore {
    /// Logs `kind` of `id` (an invitation's or a participant's id) at `now`: the session's next sequence number, an
    /// entry of ``Participation/feature`` with the kind as its event, source `client`, and version 0 after it. No
    /// feature's state or version changes, so every version stays addressable and a stream that resumes from an
    /// earlier sequence number misses nothing (a feature's newest change keeps its own sequence number).
    /// - Returns: The entry's sequence number.
    @discardableResult
    public mutating func participate(_ kind: Participation, id: String, at now: Date) -> Int {
        counters.sequence += 1
        log.append(
            LogEntry(
                seq: counters.sequence, at: now, feature: Participation.feature, event: kind.rawValue,
                summary: kind.summary(id: id), source: .client, causedBy: nil, versionAfter: 0))
        return counters.sequence
    }
}
