import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// A shared session's participation entry made on a node that does not own the session (a join, whose route names
/// no session, reached another node): it goes to the owner's internal listener (`POST /v1/participations/{id}`, a
/// hop like any other), which journals it there and answers once it is durable.
extension ClusterHop {
    /// The internal route's path, before the session's id.
    static let participationPath = "/v1/participations/"

    /// What the owner answered.
    enum ParticipationAnswer: Sendable {
        /// Journaled there, durable (`204`).
        case recorded
        /// The session ended (`410`): there is no log to write it in.
        case ended
        /// It could not be reached, or handed the session over: nothing was written there.
        case unreachable
        /// It no longer owns the session.
        case misdirected
        /// Any other answer: not written.
        case failed(String)
    }

    /// Sends `kind` of `id` for session `session` to `peer`, which owns it.
    func participate(_ kind: Participation, id: String, in session: SessionID, at peer: PeerNode) async
        -> ParticipationAnswer
    {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("participation")
        writer.string(kind.rawValue)
        writer.endObject()
        let request = HTTPRequest(
            method: .post, target: Self.participationPath + session.rawValue,
            headers: [.contentType: "application/json"], body: writer.bytes)
        do {
            let response = try await upstream.send(request, to: peer.address, setting: hopFields)
            switch response.status.code {
            case 204: return .recorded
            case 410: return .ended
            case 421:
                routes.forget(session)
                return response.headers.contains(Self.handOffField) ? .unreachable : .misdirected
            default: return .failed("\(peer) answered \(response.status.code)")
            }
        } catch .unreachable {
            routes.forget(session)
            routes.markUnreachable(peer)
            return .unreachable
        } catch {
            return .failed("\(error)")
        }
    }
}
