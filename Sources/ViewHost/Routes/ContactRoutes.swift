import Foundation
import HTTPCore
import Logging
import ViewHostJSON
import ViewModelCore

/// Invitations and contacts (issue 42), each with the session's own credentials:
///
/// - `POST /v1/sessions/{id}/invitations` `{"purpose":"contact","features":["letters"],"name":"Alice"}` (optional
///   `uses`, 1 to 100, default 1; `expiresInSeconds`, 60 to 604,800, default a day) → `201 {"id","code","expiresAt",
///   "uses",…}`. The code (160 bits from the system's secure random source) is given out this once: the store keeps
///   its SHA-256 only, and no snapshot, history, log or export holds it.
/// - `GET /v1/sessions/{id}/invitations`: the open ones (never their codes).
/// - `DELETE /v1/sessions/{id}/invitations/{invitationId}` → `204`; its code is `410` from then on.
/// - `POST /v1/sessions/{id}/contacts` `{"code","name"}` → `201 {"contact":{"id","name"}}`: this session redeems
///   another's invitation, naming itself `name`; both sessions' features are introduced
///   (``Feature/introduced(to:)``: this one's before the answer, the other's by a delivery). `404` for an unknown
///   code, `410` for one used up, withdrawn or expired, `409` for the session's own code or a contact it has.
///
/// Making and redeeming invitations are rate-limited per client like session creation; a session holds at most
/// `contacts.maxOpenInvitations` open invitations (429) and `contacts.maxPerSession` contacts (422).
enum ContactRoutes {
    /// A code's default lifetime.
    static let defaultLifetime: TimeInterval = 86_400
    /// The longest lifetime an invitation may ask for (a week).
    static let longestLifetime = 604_800

    static func register<C: Clock>(
        on router: inout MeteredRouter, registry: SessionRegistry, limits: RequestRateLimits<C>
    ) where C.Duration == Duration {
        let resolver = SessionResolver(registry: registry)
        let settings = registry.settings.contacts

        router.on(.post, "/v1/sessions/:id/contacts", session: resolver) { request, context, session in
            try limits.admitContactRequest(from: context.clientAddress)
            let (code, name) = try redemption(RequestBody.json(request))
            let asked = Redemption(
                digest: InvitationCode.digest(code), session: session.id, name: name,
                maxContacts: settings.maxPerSession, forInviter: .random(), forRedeemer: .random())
            let contacts = registry.contacts
            let now = registry.scheduler.now
            return .deferred {
                let pair: ContactPair
                switch try await directory(context.logger, { try contacts.redeem(asked, now: now) }) {
                case .made(let made):
                    pair = made
                case .existing(let existing):
                    // Made before, and this session knows it: a second redeem is a conflict. (One that does not
                    // know it was cut short after the store kept the contact: it is finished now.)
                    guard !session.knows(existing.redeemerAddress, in: existing.feature) else {
                        throw AppError.invalidField(
                            "code",
                            reason: "is of a session this one has as a contact for '\(existing.feature)' already",
                            status: .conflict)
                    }
                    pair = existing
                case .unknown:
                    throw AppError.unknownInvitationCode
                case .gone:
                    throw AppError.spentInvitationCode
                case .own:
                    throw AppError.invalidField(
                        "code", reason: "is this session's own invitation: another session redeems it",
                        status: .conflict)
                case .tooManyContacts(let limit):
                    throw AppError.invalidField(
                        "contacts.maxPerSession",
                        reason: "is \(limit), and one of the two sessions has that many contacts already",
                        status: .unprocessableContent)
                }
                do throws(SessionError) {
                    let made = Contact(name: pair.inviterName, address: pair.redeemerAddress)
                    try await session.introduce(made, in: pair.feature, as: name)?.value()
                } catch {
                    throw AppError(error, batch: false)
                }
                var writer = JSONWriter()
                writer.beginObject()
                writer.key("contact")
                writer.beginObject()
                writer.key("feature")
                writer.string(pair.feature)
                writer.key("id")
                writer.string(pair.redeemerAddress.rawValue)
                writer.key("name")
                writer.string(pair.inviterName)
                writer.endObject()
                writer.endObject()
                return HTTPResponse(
                    status: .created, contentType: "application/json", bytes: writer.bytes,
                    headers: [.cacheControl: "no-store"])
            }
        }
    }

    /// Runs a directory call off the event loops; a store that does not answer is `503`, and its cause is logged.
    static func directory<Value: Sendable>(
        _ logger: Logger, _ work: @escaping @Sendable () throws -> Value
    ) async throws(AppError) -> Value {
        do {
            return try await OffLoop.run { try work() }
        } catch {
            logger.error("the contact directory cannot be used", metadata: ["reason": "\(error)"])
            throw AppError.storageUnavailable
        }
    }

    /// An invitation's members besides its code, in name order.
    static func write(_ invitation: Invitation, into writer: inout JSONWriter) {
        writer.key("expiresAt")
        writer.string(invitation.expiresAt.formatted(.iso8601))
        writer.key("features")
        writer.beginArray()
        writer.string(invitation.feature)
        writer.endArray()
        writer.key("id")
        writer.string(invitation.id)
        writer.key("name")
        writer.string(invitation.name)
        writer.key("purpose")
        writer.string("contact")
        writer.key("uses")
        writer.integer(invitation.uses)
    }

    /// The code and name of `POST /v1/sessions/{id}/contacts`.
    /// - Throws: `422` naming the member that is missing or not what it must be.
    private static func redemption(_ body: JSONValue) throws(AppError) -> (code: String, name: String) {
        guard case .object(let members) = body else {
            throw .invalidField(
                "body", reason: "must be a JSON object with code and name", status: .unprocessableContent)
        }
        var code: String?
        var name: String?
        for (member, value) in members {
            switch (member, value) {
            case ("code", .string(let text)) where (1...128).contains(text.utf8.count):
                code = text
            case ("name", .string(let text)) where Contact.isValidName(text):
                name = text
            case ("code", _):
                throw .invalidField("code", reason: "must be an invitation's code", status: .unprocessableContent)
            case ("name", _):
                throw .invalidField("name", reason: InvitationRequest.nameRule, status: .unprocessableContent)
            default:
                throw .invalidField(
                    member, reason: "is not a member of a redemption (code, name)", status: .unprocessableContent)
            }
        }
        guard let code else { throw .invalidField("code", reason: "is missing", status: .unprocessableContent) }
        guard let name else { throw .invalidField("name", reason: "is missing", status: .unprocessableContent) }
        return (code, name)
    }
}

/// The body of `POST /v1/sessions/{id}/invitations`.
struct InvitationRequest {
    let feature: String
    let name: String
    let uses: Int
    let lifetime: TimeInterval

    static let nameRule = "must be a name of 1 to \(Contact.maxNameCharacters) characters, not only white space"

    /// - Throws: `422` naming the member: a purpose other than `contact`, not one feature of the session that takes
    ///   contacts, a name out of bounds, uses or a lifetime out of range, a member it does not know.
    static func parse(_ body: JSONValue, session: Session, registry: SessionRegistry) throws(AppError)
        -> InvitationRequest
    {
        guard case .object(let members) = body else {
            throw .invalidField("body", reason: "must be a JSON object", status: .unprocessableContent)
        }
        let takers = session.featureNames.filter { registry.definition(named: $0)?.takesContacts == true }
        var purpose: String?
        var feature: String?
        var name: String?
        var uses = 1
        var lifetime = ContactRoutes.defaultLifetime
        for (member, value) in members {
            switch (member, value) {
            case ("purpose", .string(let text)) where text == "contact":
                purpose = text
            case ("purpose", _):
                throw .invalidField("purpose", reason: "must be \"contact\"", status: .unprocessableContent)
            case ("features", .array(let items)) where items.count == 1:
                guard case .string(let text) = items[0], takers.contains(text) else {
                    throw .invalidField(
                        "features[0]",
                        reason: takers.isEmpty
                            ? "must be a feature that takes contacts, and this session has none"
                            : "must be one of \(takers.joined(separator: ", ")) (this session's features that take contacts)",
                        status: .unprocessableContent)
                }
                feature = text
            case ("features", _):
                throw .invalidField(
                    "features", reason: "must be an array of one feature's name", status: .unprocessableContent)
            case ("name", .string(let text)) where Contact.isValidName(text):
                name = text
            case ("name", _):
                throw .invalidField("name", reason: nameRule, status: .unprocessableContent)
            case ("uses", .number(let number)) where number == number.rounded() && (1...100).contains(number):
                uses = Int(number)
            case ("uses", _):
                throw .invalidField("uses", reason: "must be an integer, 1 to 100", status: .unprocessableContent)
            case ("expiresInSeconds", .number(let number))
            where (60...Double(ContactRoutes.longestLifetime)).contains(number):
                lifetime = number
            case ("expiresInSeconds", _):
                throw .invalidField(
                    "expiresInSeconds", reason: "must be 60 to \(ContactRoutes.longestLifetime)",
                    status: .unprocessableContent)
            default:
                throw .invalidField(
                    member,
                    reason: "is not a member of an invitation (purpose, features, name, uses, expiresInSeconds)",
                    status: .unprocessableContent)
            }
        }
        guard purpose != nil else {
            throw .invalidField("purpose", reason: "is missing", status: .unprocessableContent)
        }
        guard let feature else { throw .invalidField("features", reason: "is missing", status: .unprocessableContent) }
        guard let name else { throw .invalidField("name", reason: "is missing", status: .unprocessableContent) }
        return InvitationRequest(feature: feature, name: name, uses: uses, lifetime: lifetime)
    }
}
