import HTTPCore
import Logging
import ViewModelCore

/// The internal listener's responder: requests that carry the cluster's secret go to the app (as hops, which are
/// never forwarded again); any other request is refused with 403, so the listener is no way in for clients.
/// An answer to a hop for a session that only that hop's node asks for hands the session to it
/// (``SessionAffinity``, ``ClusterHop/handOffField``). A node that is stopping hands every new hop back
/// (``HopDeparture``), and counts the writing ones it took before, so it ends its lease only once they answered.
struct HopGate: HTTPResponder {
    let wrapped: any HTTPResponder
    let hop: ClusterHop

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPHandlerResult {
        guard hop.isHop(request) else { throw AppError.hopRefused }
        let writing = request.method != .get && request.method != .head
        guard hop.departure.enter(writing: writing) else {
            // Handed back once the writes taken before have answered: the taker's new epoch would refuse a write
            // still on its way to the store (a 503 for a request this node had accepted). A hop that waits says so:
            // its answer may come as late as the drain timeout, and the log tells why.
            let writes = hop.departure.writesUnderWay
            if writes > 0 {
                let id = Self.session(in: request.path)?.rawValue ?? ""
                context.logger.info(
                    "a forwarded request waits for this stopping node's writes to be stored, then is handed back",
                    metadata: ["writes": "\(writes)", "session-id": "\(id)"])
            }
            return .deferred { [hop] in
                await hop.departure.writesFinished()
                throw AppError.handedOver(node: hop.node)
            }
        }
        let result: HTTPHandlerResult
        do {
            result = try wrapped.respond(to: request, context: context)
        } catch {
            if writing { hop.departure.exit() }
            throw error
        }
        let forwarder = request.headers[ClusterHop.fromField]
        let id = Self.session(in: request.path)
        return try result.map { [hop] outcome in
            if writing { hop.departure.exit() }
            var response = try outcome.get()
            guard let forwarder, let id else { return response }
            if response.status.code < 400, hop.affinity.handsOff(id, to: forwarder) {
                response.headers.add(ClusterHop.handOffField, "1")
            }
            return response
        }
    }

    /// The session a path names: `/v1/sessions/ID/…`.
    static func session(in path: String) -> SessionID? {
        let parts = path.split(separator: "/", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[1] == "v1", parts[2] == "sessions", !parts[3].isEmpty else { return nil }
        return SessionID(String(parts[3]))
    }
}
