import HTTPCore
import Logging
import Synchronization
import ViewModelCore

/// The hop between nodes: a node that gets a request for a session another live node owns sends it there and
/// relays the answer (a snapshot, an event's answer, a long poll, an event stream), instead of taking the session
/// over. Hops carry the cluster's shared secret (`ViewHost-Hop`) and go to the owner's internal listener, which
/// takes nothing else (``HopGate``); a hop is never forwarded again.
///
/// Where each session's owner is, once looked up in the store, is remembered for a while (``RouteCache``): a node
/// that died refuses the connection and a node that lost the session answers 421, and either way the route is
/// looked up again.
final class ClusterHop: Sendable {
    /// The field that carries the secret.
    static let field: HTTPHeaderName = "ViewHost-Hop"
    /// The field that names the node that forwarded a request.
    static let fromField: HTTPHeaderName = "ViewHost-Hop-From"
    /// The field of an owner's answer that hands the session to the node that forwarded the request
    /// (``SessionAffinity``): that node takes it over with its next request.
    static let handOffField: HTTPHeaderName = "ViewHost-Hop-Handoff"

    /// This node's name.
    let node: String
    private let secret: [UInt8]
    let upstream: HTTPUpstream
    let routes = RouteCache()
    /// Which node asks for this node's sessions (they move to a node that alone asks for them).
    let affinity = SessionAffinity()
    /// This node's graceful way out: hops answered until it leaves, then handed back.
    let departure = HopDeparture()
    private let forwardedCount = Atomic<Int>(0)

    /// A hop for node `node` with the cluster's shared `secret`.
    init(node: String, secret: String, upstream: HTTPUpstream = HTTPUpstream()) {
        self.node = node
        self.secret = Array(secret.utf8)
        self.upstream = upstream
    }

    /// The node that forwarded `request`, when it is a hop; nil when it came from a client.
    func forwarder(of request: HTTPRequest) -> String? {
        isHop(request) ? request.headers[Self.fromField] : nil
    }

    /// Whether `request` came from another node of the cluster (it carries the secret). Compared in time that does
    /// not depend on where the first difference is.
    func isHop(_ request: HTTPRequest) -> Bool {
        guard let value = request.headers[Self.field] else { return false }
        let given = Array(value.utf8)
        guard given.count == secret.count else { return false }
        var difference: UInt8 = 0
        for index in given.indices { difference |= given[index] ^ secret[index] }
        return difference == 0
    }

    /// The fields that make a request from this node a hop: the secret and this node's name.
    var hopFields: [(HTTPHeaderName, String)] {
        [(Self.field, String(decoding: secret, as: UTF8.self)), (Self.fromField, node)]
    }

    /// How many requests this node forwarded to another since it started.
    var forwarded: Int { forwardedCount.load(ordering: .relaxed) }

    /// What came of a forwarded request.
    enum Outcome: Sendable {
        /// The owner answered (its answer, to relay as it is).
        case answered(HTTPResponse)
        /// The owner could not be reached: nothing was sent, so taking the session over is safe.
        case unreachable
        /// The owner no longer owns the session.
        case misdirected
        /// The owner is stopping and handed the session over (it applied nothing of this request): taking the
        /// session over is safe, at once.
        case handedOver
    }

    /// Sends `request`, for session `id`, to `peer` as a hop, naming the client (so its limits and the access log
    /// count it).
    /// - Throws: ``AppError/ownerUnreachable(node:)`` when the request went out but no answer came back.
    func forward(
        _ request: HTTPRequest, for id: SessionID, context: HTTPRequestContext, to peer: PeerNode
    ) async throws -> Outcome {
        var fields: [(HTTPHeaderName, String)] = [
            (Self.field, String(decoding: secret, as: UTF8.self)), (Self.fromField, node),
            (.xRequestID, context.requestID),
        ]
        if let client = context.clientAddress {
            fields.append((.xForwardedFor, "\(client)"))
            fields.append((.forwarded, client.isIPv4 ? "for=\(client)" : "for=\"[\(client)]\""))
        }
        forwardedCount.add(1, ordering: .relaxed)
        do {
            let response = try await upstream.send(request, to: peer.address, setting: fields)
            guard response.status.code != 421 else {
                routes.forget(id)
                return response.headers.contains(Self.handOffField) ? .handedOver : .misdirected
            }
            var answer = response
            if answer.headers.contains(Self.handOffField) {
                answer.headers.remove(Self.handOffField)
                routes.handOff(id, from: peer)
            }
            return .answered(answer)
        } catch .unreachable {
            routes.forget(id)
            routes.markUnreachable(peer)
            return .unreachable
        } catch {
            routes.forget(id)
            routes.markUnreachable(peer)
            context.logger.warning(
                "a forwarded request got no answer", metadata: ["node": "\(peer.name)", "reason": "\(error)"])
            throw AppError.ownerUnreachable(node: peer.name)
        }
    }
}
