import Foundation
import HTTPCore
import Logging
import ViewHostCrypto
import ViewHostJSON
import ViewModelCore

/// The participants of a shared session (issue 43):
///
/// - `POST /v1/sessions/{id}/invitations` `{"purpose":"join"}` (``InvitationRoutes``) by the owner: a code that lets
///   someone join as a `member` of the features it names (``JoinInvitationRequest``).
/// - `POST /v1/invitations/{code}` `{"name":"Bea"}`, with no session credential → `201` like session creation: the
///   session's `id`, the participant's own `token` (its id, a dot, its secret; the store keeps the secret's SHA-256
///   only), `expiresAt`, `links`, the browser's cookies, and `participant: {"id","name","role"}`. `404` for an unknown
///   code (a contact invitation's too: only `/contacts` takes those), `410` for one used up, withdrawn or expired,
///   `422` when the session has `participants.maxPerSession` participants; rate-limited per client like session
///   creation.
/// - `GET /v1/sessions/{id}/participants`: the owner and each participant that takes part, with its presence
///   (`online` while it has a stream open, `since` when that last changed).
/// - `DELETE /v1/sessions/{id}/participants/{participant}` → `204`: by the owner, or a member removing itself. Its
///   token answers `401` from then on, on every node (the store keeps the removal), and its open streams end.
enum ParticipantRoutes {
    static func register<C: Clock>(
        on router: inout MeteredRouter, registry: SessionRegistry, limits: RequestRateLimits<C>
    ) where C.Duration == Duration {
        let resolver = SessionResolver(registry: registry)
        router.on(.post, "/v1/invitations/:code") { request, context in
            try limits.admitSessionCreation(from: context.clientAddress)
            return try join(request, code: context.parameters["code"] ?? "", registry: registry, context: context)
        }

        router.on(.get, "/v1/sessions/:id/participants", session: resolver, members: .allowed) {
            request, context, session, _ in
            let roster = registry.participants
            return .deferred {
                let participants = try await ContactRoutes.directory(context.logger) {
                    try roster.participants(of: session.id)
                }
                return list(participants, of: session.id, roster: roster)
            }
        }

        router.on(.delete, "/v1/sessions/:id/participants/:participant", session: resolver, members: .allowed) {
            request, context, session, member in
            let id = context.parameters["participant"] ?? ""
            if let member, member.id != id {
                throw HTTPError(.forbidden, detail: "A member may remove only itself; the owner removes the others.")
            }
            let roster = registry.participants
            let now = registry.scheduler.now
            return .deferred {
                guard
                    try await ContactRoutes.directory(
                        context.logger, { try roster.remove(id, of: session.id, now: now) })
                else {
                    throw AppError.invalidField(
                        "participant", reason: "names no participant of this session", status: .notFound)
                }
                context.logger.info(
                    "a participant was removed",
                    metadata: [
                        "session-id": "\(session.id)", "participant": "\(id)",
                        "by": "\(member?.id ?? Participant.ownerID)",
                    ])
                try await registry.recordParticipation(
                    member == nil ? .removed : .left, id: id, in: session.id, session: session, logger: context.logger)
                return HTTPResponse(status: .noContent)
            }
        }
    }

    /// `201` with a new join invitation of `session`.
    static func invite(
        _ body: JSONValue, session: Session, registry: SessionRegistry, context: HTTPRequestContext
    ) throws -> HTTPHandlerResult {
        let settings = registry.settings.contacts
        let asked = try JoinInvitationRequest.parse(body, session: session, registry: registry)
        let now = registry.scheduler.now
        let code = InvitationCode.make()
        let invitation = JoinInvitation(
            id: "j" + SecureIdentifier.make(bits: 80), session: session.id, features: asked.features, role: .member,
            digest: InvitationCode.digest(code), createdAt: now, expiresAt: now.addingTimeInterval(asked.lifetime),
            uses: asked.uses)
        let directory = registry.participants.directory
        return InvitationRoutes.created(
            invitation.id, of: session, openLimit: settings.maxOpenJoinInvitations, counted: "join invitations",
            setting: "participants.maxOpenInvitations", context: context,
            keep: { try directory.addJoinInvitation(invitation, openLimit: settings.maxOpenJoinInvitations, now: now) },
            made: {
                context.logger.info(
                    "a join invitation was made",
                    metadata: [
                        "session-id": "\(session.id)", "invitation": "\(invitation.id)",
                        "features": "\(invitation.features.joined(separator: ","))", "uses": "\(invitation.uses)",
                    ])
                try await registry.recordParticipation(
                    .invited, id: invitation.id, in: session.id, session: session, logger: context.logger)
            },
            members: { writer in
                writer.key("code")
                writer.string(code)
                write(invitation, into: &writer)
            })
    }

    /// A join invitation's members besides its code, in name order.
    static func write(_ invitation: JoinInvitation, into writer: inout JSONWriter) {
        writer.key("expiresAt")
        writer.string(invitation.expiresAt.formatted(.iso8601))
        writer.key("features")
        writer.beginArray()
        for feature in invitation.features { writer.string(feature) }
        writer.endArray()
        writer.key("id")
        writer.string(invitation.id)
        writer.key("purpose")
        writer.string("join")
        writer.key("role")
        writer.string(invitation.role.rawValue)
        writer.key("uses")
        writer.integer(invitation.uses)
    }

    /// `POST /v1/invitations/{code}`: lets the one who holds `code` in.
    private static func join(
        _ request: HTTPRequest, code: String, registry: SessionRegistry, context: HTTPRequestContext
    ) throws -> HTTPHandlerResult {
        let name = try joinerName(RequestBody.json(request))
        guard (1...128).contains(code.utf8.count) else { throw AppError.unknownInvitationCode }
        let secret = SessionSecret.random()
        let joining = Joining(
            digest: InvitationCode.digest(code), id: "p" + SecureIdentifier.make(bits: 80), name: name,
            tokenDigest: Digest.sha256(Array(secret.rawValue.utf8)),
            maxParticipants: registry.settings.contacts.maxParticipants)
        let directory = registry.participants.directory
        let now = registry.scheduler.now
        return .deferred {
            let participant: Participant
            switch try await ContactRoutes.directory(context.logger, { try directory.join(joining, now: now) }) {
            case .joined(let joined):
                participant = joined
            case .unknown:
                throw AppError.unknownInvitationCode
            case .gone:
                throw AppError.spentInvitationCode
            case .full(let limit):
                throw AppError.invalidField(
                    "participants.maxPerSession", reason: "is \(limit), and this session has that many participants",
                    status: .unprocessableContent)
            }
            context.logger.info(
                "a participant joined",
                metadata: [
                    "session-id": "\(participant.session)", "participant": "\(participant.id)",
                    "features": "\(participant.features.joined(separator: ","))",
                ])
            // Journaled by the node that owns the session (this one, or the owner through a hop).
            try await registry.recordParticipation(
                .joined, id: participant.id, in: participant.session,
                session: registry.store.session(participant.session),
                logger: context.logger)
            return joined(participant, token: Participant.token(id: participant.id, secret: secret), registry: registry)
        }
    }

    /// `201` as session creation answers, for a participant: its session's id, its token, when the session expires
    /// if left idle, the links it may follow, its cookies, and itself.
    private static func joined(_ participant: Participant, token: String, registry: SessionRegistry) -> HTTPResponse {
        let id = participant.session
        // Joining is a use of the session: in memory here it is touched; otherwise the store is told.
        let expiresAt: Date
        if let session = registry.store.session(id) {
            registry.keepAlive(session)
            expiresAt = registry.expiry(of: session)
        } else {
            let now = registry.scheduler.now
            registry.storage?.recordAccess([(id, now)])
            expiresAt = now.addingTimeInterval(registry.settings.store.idleTTL.seconds)
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("expiresAt")
        writer.string(expiresAt.formatted(.iso8601))
        writer.key("id")
        writer.string(id.rawValue)
        writer.key("links")
        writer.beginObject()
        let base = "/v1/sessions/\(id.rawValue)"
        for name in (participant.features + ["participants", "stream"]).sorted() {
            writer.key(name)
            writer.string("\(base)/\(name)")
        }
        writer.endObject()
        writer.key("participant")
        writer.beginObject()
        writer.key("id")
        writer.string(participant.id)
        writer.key("name")
        writer.string(participant.name)
        writer.key("role")
        writer.string(participant.role.rawValue)
        writer.endObject()
        writer.key("token")
        writer.string(token)
        writer.endObject()
        var headers: HTTPHeaders = [.location: base, .cacheControl: "no-store"]
        for cookie in SessionCookie.created(id: id.rawValue, token: token) { headers.add(.setCookie, cookie) }
        return HTTPResponse(status: .created, contentType: "application/json", bytes: writer.bytes, headers: headers)
    }

    /// `{"participants":[…]}`: the owner first, then each participant that takes part, in the order they joined.
    private static func list(_ participants: [Participant], of session: SessionID, roster: ParticipantRoster)
        -> HTTPResponse
    {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("participants")
        writer.beginArray()
        let present = participants.filter { $0.removedAt == nil }
        let entries =
            [(Participant.ownerID, Participant.ownerID, ParticipantRole.owner)]
            + present.map { ($0.id, $0.name, $0.role) }
        for (id, name, role) in entries {
            let presence = roster.presence(of: id, in: session)
            writer.beginObject()
            writer.key("id")
            writer.string(id)
            writer.key("name")
            writer.string(name)
            writer.key("presence")
            writer.beginObject()
            writer.key("online")
            writer.boolean(presence.online)
            writer.key("since")
            if let since = presence.since { writer.string(since.formatted(.iso8601)) } else { writer.null() }
            writer.endObject()
            writer.key("role")
            writer.string(role.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return HTTPResponse(
            contentType: "application/json", bytes: writer.bytes, headers: [.cacheControl: "private, no-store"])
    }

    /// The `name` of `POST /v1/invitations/{code}`.
    /// - Throws: `422` naming the member that is missing or not what it must be.
    private static func joinerName(_ body: JSONValue) throws(AppError) -> String {
        guard case .object(let members) = body else {
            throw .invalidField("body", reason: "must be a JSON object with a name", status: .unprocessableContent)
        }
        var name: String?
        for (member, value) in members {
            switch (member, value) {
            case ("name", .string(let text)) where Participant.isValidName(text):
                name = text
            case ("name", _):
                throw .invalidField(
                    "name",
                    reason: "must be a name of 1 to \(Participant.maxNameCharacters) characters, not only white space",
                    status: .unprocessableContent)
            default:
                throw .invalidField(member, reason: "is not a member of a join (name)", status: .unprocessableContent)
            }
        }
        guard let name else { throw .invalidField("name", reason: "is missing", status: .unprocessableContent) }
        return name
    }
}
