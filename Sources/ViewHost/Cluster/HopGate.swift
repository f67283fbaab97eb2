import HTTPCore

/// The internal listener's responder: requests that carry the cluster's secret go to the app (as hops, which are
/// never forwarded again); any other request is refused with 403, so the listener is no way in for clients.
struct HopGate: HTTPResponder {
    let wrapped: any HTTPResponder
    let hop: ClusterHop

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPHandlerResult {
        guard hop.isHop(request) else { throw AppError.hopRefused }
        return try wrapped.respond(to: request, context: context)
    }
}
