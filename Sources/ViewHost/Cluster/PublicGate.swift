import HTTPCore

/// The public listener's responder on a node that forwards: hops between nodes are taken on the internal listener
/// only (``HopGate``), so a request here that carries ``ClusterHop/field`` is refused with 403 before anything
/// else runs, whatever the field says. It is never taken as a hop (answered for this node alone, never forwarded,
/// counted towards handing a session over), so a secret that leaked opens nothing from outside; and every value
/// gets the same answer, so the public port tells a guesser nothing about the secret.
///
/// Each refusal goes to the rate-limited ``RefusalLog`` like the other refusals, saying whether the field held the
/// secret itself (then it has leaked: change it on every node). The secret is never written there.
struct PublicGate: HTTPResponder {
    let wrapped: any HTTPResponder
    let hop: ClusterHop
    let refusals: RefusalLog<ContinuousClock>

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPHandlerResult {
        guard request.headers.contains(ClusterHop.field) else {
            return try wrapped.respond(to: request, context: context)
        }
        let reason =
            hop.isHop(request)
            ? "a hop (ViewHost-Hop) on the public listener, carrying the cluster's secret: it has leaked"
            : "a ViewHost-Hop field on the public listener, not the cluster's secret"
        refusals.record(
            status: AppError.hopOnPublicListener.status.code, reason: reason, requestID: context.requestID,
            peer: context.clientAddress?.description)
        throw AppError.hopOnPublicListener
    }
}
