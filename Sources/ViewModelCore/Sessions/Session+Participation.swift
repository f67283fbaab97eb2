import Foundation
import ViewHostLocking

/// A shared session's invitations and participants in its data-flow log and journal (issue 43): each one an input of
/// its own, in the session's order, through the same pipeline as a client's.
extension Session {
    /// Records `kind` of `id` (an invitation's or a participant's id; never a code, a token or a name): an entry in
    /// the data-flow log with the session's next sequence number, journaled as
    /// ``SessionInput/participation(at:kind:id:)``. No feature's version changes.
    /// - Returns: Resolved once it is durable (nil with the memory store, where it is at once).
    /// - Throws: ``SessionError/ended(_:)`` when the session has ended (or this copy was dropped: load it again).
    public func participate(_ kind: Participation, id: String) throws(SessionError) -> CommitTicket? {
        let now = environment.scheduler.now
        let commit = try shell.withLock { shell throws(SessionError) -> Commit in
            if let end = shell.end { throw shell.ended(end) }
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            shell.core.participate(kind, id: id, at: now)
            let input = SessionInput.participation(at: now, kind: kind, id: id)
            return record(.maker({ input }), step: nil, key: nil, waited: true, in: &shell)
        }
        complete(commit)
        return commit.ticket
    }
}
