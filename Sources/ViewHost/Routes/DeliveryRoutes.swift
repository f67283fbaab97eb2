import Foundation
import HTTPCore
import ViewModelCore

/// `POST /v1/deliveries/{id}`: a delivery batch another node's courier sends to the node that owns its receiving
/// session (``ClusterHop/deliver(_:count:to:at:)``), taken on the internal listener only (a hop: it carries the
/// cluster's secret; anything else is 403). Answered once the batch is durable here: `204` applied (or applied
/// before), `410` the session ended, `404` it has no such feature, `429` its backlog is full, `421` another node owns
/// it now, `503` not now.
enum DeliveryRoutes {
    static func register(on router: inout MeteredRouter, registry: SessionRegistry) {
        guard let cluster = registry.cluster else { return }
        router.on(.post, "/v1/deliveries/:id") { request, context in
            guard cluster.isHop(request) else { throw AppError.hopRefused }
            let (delivery, count) = try DeliveryBody.decode(RequestBody.json(request))
            let id = SessionID(context.parameters["id"] ?? "")
            return .deferred {
                switch await registry.deliveryTarget(id, hop: true) {
                case .here(let receiver):
                    switch await registry.courier.apply(delivery, count: count, to: receiver) {
                    case .applied: return HTTPResponse(status: .noContent)
                    case .failed(.ended): return HTTPResponse(status: .gone)
                    case .failed(.unknownAddress): return HTTPResponse(status: .notFound)
                    case .failed(.full): return HTTPResponse(status: .tooManyRequests)
                    case .retry: throw AppError.sessionUnavailable
                    }
                case .ended: return HTTPResponse(status: .gone)
                case .elsewhere(let owner): throw AppError.misdirected(owner: owner.name)
                case .unavailable: throw AppError.sessionUnavailable
                }
            }
        }
    }
}
