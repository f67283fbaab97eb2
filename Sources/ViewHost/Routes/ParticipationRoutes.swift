import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// `POST /v1/participations/{id}` `{"participation":"joined","id":"p…"}`: a participation entry another node sends to
/// the node that owns the session (``ClusterHop/participate(_:id:in:at:)``), taken on the internal listener only (a
/// hop; anything else is 403). Answered once it is durable here: `204`, `410` the session ended, `421` another node
/// owns it now, `422` a body that is not a participation, `503` not now.
enum ParticipationRoutes {
    static func register(on router: inout MeteredRouter, registry: SessionRegistry) {
        guard let cluster = registry.cluster else { return }
        router.on(.post, "/v1/participations/:id") { request, context in
            guard cluster.isHop(request) else { throw AppError.hopRefused }
            let (kind, participant) = try decode(RequestBody.json(request))
            let id = SessionID(context.parameters["id"] ?? "")
            return .deferred {
                switch await registry.deliveryTarget(id, hop: true) {
                case .here(let session):
                    do throws(SessionError) {
                        try await session.participate(kind, id: participant)?.value()
                    } catch {
                        if case .ended(let end) = error, end != .unavailable { return HTTPResponse(status: .gone) }
                        throw AppError(error, batch: false)
                    }
                    return HTTPResponse(status: .noContent)
                case .ended: return HTTPResponse(status: .gone)
                case .elsewhere(let owner): throw AppError.misdirected(owner: owner.name)
                case .unavailable: throw AppError.sessionUnavailable
                }
            }
        }
    }

    private static func decode(_ body: JSONValue) throws(AppError) -> (Participation, String) {
        guard case .object(let members) = body,
            case .string(let stated)? = members.first(where: { $0.0 == "participation" })?.1,
            let kind = Participation(rawValue: stated),
            case .string(let id)? = members.first(where: { $0.0 == "id" })?.1, Participation.isValidID(id)
        else {
            throw .invalidField(
                "body", reason: "must be a participation: {\"participation\":…,\"id\":…}", status: .unprocessableContent
            )
        }
        return (kind, id)
    }
}
