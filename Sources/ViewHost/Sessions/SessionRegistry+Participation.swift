import Foundation
import Logging
import ViewModelCore

extension SessionRegistry {
    /// Records `kind` of `id` in session `sessionID`'s data-flow log and journal (issue 43), on the node that owns it:
    /// `session` when the request holds it here, else found as a delivery's receiver is (loaded here, or sent to the
    /// owner through the ``ClusterHop``). Returns once it is durable; a session that ended has no log to write it
    /// in, and is left so.
    /// - Throws: ``AppError/sessionUnavailable`` (503) when it could not be kept, the cause logged in one line.
    func recordParticipation(
        _ kind: Participation, id: String, in sessionID: SessionID, session: Session?, logger: Logger
    ) async throws(AppError) {
        var failure = "session \(sessionID) kept moving between nodes"
        var target: DeliveryTarget
        if let session, !session.isClosed { target = .here(session) } else { target = await deliveryTarget(sessionID) }
        attempts: for _ in 0..<SessionResolver.maxSteps {
            switch target {
            case .here(let live):
                do throws(SessionError) {
                    try await live.participate(kind, id: id)?.value()
                    return
                } catch {
                    // A copy dropped meanwhile (idle, or the store failed it) loads again; an ended session is left.
                    guard case .ended(.unavailable) = error else {
                        if case .ended = error { return }
                        failure = "\(error)"
                        break attempts
                    }
                    target = await deliveryTarget(sessionID)
                }
            case .ended:
                return
            case .unavailable(let reason):
                failure = reason
                break attempts
            case .elsewhere(let owner):
                guard let cluster else {
                    failure = "session \(sessionID) is another node's (\(owner))"
                    break attempts
                }
                switch await cluster.participate(kind, id: id, in: sessionID, at: owner) {
                case .recorded, .ended: return
                case .unreachable: target = await deliveryTarget(sessionID, replacing: owner)
                case .misdirected: target = await deliveryTarget(sessionID)
                case .failed(let reason):
                    failure = reason
                    break attempts
                }
            }
        }
        logger.error(
            "a participation entry could not be journaled",
            metadata: [
                "session-id": "\(sessionID)", "participation": "\(kind.rawValue)", "id": "\(id)",
                "reason": "\(failure)",
            ])
        throw .sessionUnavailable
    }
}
