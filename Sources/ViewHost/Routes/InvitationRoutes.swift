import Foundation
import HTTPCore
import ViewHostCrypto
import ViewHostJSON
import ViewModelCore

/// A session's invitations, of either purpose, by its owner (a member is refused, `403`):
///
/// - `POST /v1/sessions/{id}/invitations` with `"purpose":"contact"` (issue 42, ``InvitationRequest``) or
///   `"purpose":"join"` (issue 43, ``JoinInvitationRequest``) → `201` with the code, given out this once: the store
///   keeps its SHA-256 only, and no snapshot, history, log or export holds it.
/// - `GET /v1/sessions/{id}/invitations`: the open ones of both purposes (never their codes).
/// - `DELETE /v1/sessions/{id}/invitations/{invitationId}` → `204`; its code is `410` from then on.
///
/// A purpose is taken only when a feature of the app is made for it (``Feature/takesContacts``,
/// ``Feature/isShareable``); the routes exist when one of them is. Making invitations is rate-limited per client
/// like session creation.
enum InvitationRoutes {
    static func register<C: Clock>(
        on router: inout MeteredRouter, registry: SessionRegistry, limits: RequestRateLimits<C>, contacts: Bool,
        joins: Bool
    ) where C.Duration == Duration {
        let resolver = SessionResolver(registry: registry)
        router.on(.post, "/v1/sessions/:id/invitations", session: resolver) { request, context, session in
            try limits.admitContactRequest(from: context.clientAddress)
            let body = try RequestBody.json(request)
            switch purpose(of: body) {
            case "join" where joins:
                return try ParticipantRoutes.invite(body, session: session, registry: registry, context: context)
            case "contact" where contacts:
                return try contactInvitation(body, session: session, registry: registry, context: context)
            default:
                let taken = (contacts ? ["\"contact\""] : []) + (joins ? ["\"join\""] : [])
                throw AppError.invalidField(
                    "purpose", reason: "must be \(taken.joined(separator: " or "))", status: .unprocessableContent)
            }
        }

        router.on(.get, "/v1/sessions/:id/invitations", session: resolver) { request, context, session in
            let directory = registry.contacts
            let roster = registry.participants
            let now = registry.scheduler.now
            return .deferred {
                let open = try await ContactRoutes.directory(context.logger) {
                    (
                        contacts ? try directory.invitations(of: session.id, now: now) : [],
                        joins ? try roster.directory.joinInvitations(of: session.id, now: now) : []
                    )
                }
                var writer = JSONWriter()
                writer.beginObject()
                writer.key("invitations")
                writer.beginArray()
                for invitation in open.0 {
                    writer.beginObject()
                    ContactRoutes.write(invitation, into: &writer)
                    writer.endObject()
                }
                for invitation in open.1 {
                    writer.beginObject()
                    ParticipantRoutes.write(invitation, into: &writer)
                    writer.endObject()
                }
                writer.endArray()
                writer.endObject()
                return HTTPResponse(
                    contentType: "application/json", bytes: writer.bytes, headers: [.cacheControl: "no-store"])
            }
        }

        router.on(.delete, "/v1/sessions/:id/invitations/:invitation", session: resolver) { request, context, session in
            let id = context.parameters["invitation"] ?? ""
            let directory = registry.contacts
            let roster = registry.participants
            let now = registry.scheduler.now
            return .deferred {
                let withdrawn = try await ContactRoutes.directory(context.logger) { () throws -> Bool? in
                    if try contacts && directory.withdrawInvitation(id, of: session.id, now: now) { return false }
                    if try joins && roster.directory.withdrawJoinInvitation(id, of: session.id, now: now) {
                        return true
                    }
                    return nil
                }
                guard let join = withdrawn else {
                    throw AppError.invalidField(
                        "invitationId", reason: "names no open invitation of this session", status: .notFound)
                }
                // A join invitation's withdrawal is in the session's data-flow log (a contact invitation's is not:
                // it lets no one into this session).
                if join {
                    try await registry.recordParticipation(
                        .withdrawn, id: id, in: session.id, session: session, logger: context.logger)
                }
                return HTTPResponse(status: .noContent)
            }
        }
    }

    /// The body's `purpose`, if it is an object with a string there.
    private static func purpose(of body: JSONValue) -> String? {
        guard case .object(let members) = body else { return nil }
        for (name, value) in members where name == "purpose" {
            if case .string(let text) = value { return text }
        }
        return nil
    }

    /// `201` with a new contact invitation of `session` (issue 42).
    private static func contactInvitation(
        _ body: JSONValue, session: Session, registry: SessionRegistry, context: HTTPRequestContext
    ) throws -> HTTPHandlerResult {
        let settings = registry.settings.contacts
        let asked = try InvitationRequest.parse(body, session: session, registry: registry)
        let now = registry.scheduler.now
        let code = InvitationCode.make()
        let invitation = Invitation(
            id: "i" + SecureIdentifier.make(bits: 80), session: session.id, feature: asked.feature, name: asked.name,
            digest: InvitationCode.digest(code), createdAt: now, expiresAt: now.addingTimeInterval(asked.lifetime),
            uses: asked.uses)
        let contacts = registry.contacts
        return created(
            invitation.id, of: session, openLimit: settings.maxOpenInvitations, counted: "invitations",
            setting: "contacts.maxOpenInvitations", context: context,
            keep: { try contacts.addInvitation(invitation, openLimit: settings.maxOpenInvitations, now: now) },
            members: { writer in
                ContactRoutes.write(invitation, into: &writer)
                writer.key("code")
                writer.string(code)
            })
    }

    /// `201` with the invitation `id` of `session`, of either purpose, once `keep` has stored it: `keep` answers
    /// false when the session holds `limit` open invitations of the purpose (`counted`) already, and that is `429`
    /// naming the `setting`. `made` runs once it is kept; `members` writes the answer's members, its code among them.
    static func created(
        _ id: String, of session: Session, openLimit limit: Int, counted: String, setting: String,
        context: HTTPRequestContext, keep: @escaping @Sendable () throws -> Bool,
        made: @escaping @Sendable () async throws -> Void = {},
        members: @escaping @Sendable (inout JSONWriter) -> Void
    ) -> HTTPHandlerResult {
        .deferred {
            guard try await ContactRoutes.directory(context.logger, keep) else {
                throw AppError.rateLimited(
                    "This session holds \(limit) open \(counted) (\(setting)): "
                        + "withdraw one, or wait for one to be used or to expire.",
                    retryAfter: .seconds(60))
            }
            try await made()
            var writer = JSONWriter()
            writer.beginObject()
            members(&writer)
            writer.endObject()
            return HTTPResponse(
                status: .created, contentType: "application/json", bytes: writer.bytes,
                headers: [
                    .location: "/v1/sessions/\(session.id.rawValue)/invitations/\(id)",
                    .cacheControl: "no-store",
                ])
        }
    }
}

/// An invitation's code, of either purpose: 160 bits from the system's secure random source, given out once (in the
/// `201` that makes it). The store keeps only its SHA-256, and a code redeemed or joined with is looked up by it.
enum InvitationCode {
    /// A new code.
    static func make() -> String { SecureIdentifier.make(bits: 160) }

    /// What the store keeps of `code`, and finds its invitation by.
    static func digest(_ code: String) -> [UInt8] { Digest.sha256(Array(code.utf8)) }
}

extension AppError {
    /// `404` for a code that is no invitation's (of the purpose its route takes: the other's are unknown there too).
    static let unknownInvitationCode = AppError.invalidField(
        "code", reason: "is not the code of any invitation", status: .notFound)
    /// `410` for the code of an invitation that was used up, withdrawn or has expired.
    static let spentInvitationCode = AppError.invalidField(
        "code", reason: "is of an invitation that was used up, withdrawn or has expired", status: .gone)
}
