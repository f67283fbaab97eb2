import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// The body of `POST /v1/sessions/{id}/invitations` with `"purpose":"join"`: `features` (the session's features that
/// can be shared; default all of them), `role` (`member`, the only one), `uses` (1 to 100, default 1) and
/// `ttlSeconds` (60 to 604,800, default a day).
struct JoinInvitationRequest {
    let features: [String]
    let uses: Int
    let lifetime: TimeInterval

    /// - Throws: `422` naming the member: a feature the session lacks or that cannot be shared, or named twice (the
    ///   contract's `uniqueItems`), a role other than `member`, uses or a lifetime out of range, a member it does not
    ///   know; or the session has no feature that can be shared.
    static func parse(_ body: JSONValue, session: Session, registry: SessionRegistry) throws(AppError)
        -> JoinInvitationRequest
    {
        guard case .object(let members) = body else {
            throw .invalidField("body", reason: "must be a JSON object", status: .unprocessableContent)
        }
        let shared = session.featureNames.filter { registry.definition(named: $0)?.isShareable == true }
        var features: [String]?
        var uses = 1
        var lifetime = ContactRoutes.defaultLifetime
        for (member, value) in members {
            switch (member, value) {
            case ("purpose", _):
                continue
            case ("features", .array(let items)) where !items.isEmpty && items.count <= 64:
                var names: [String] = []
                for (index, item) in items.enumerated() {
                    guard case .string(let name) = item, shared.contains(name) else {
                        throw .invalidField(
                            "features[\(index)]",
                            reason: shared.isEmpty
                                ? "must be a feature that can be shared, and this session has none"
                                : "must be one of \(shared.joined(separator: ", ")) (this session's features that can be shared)",
                            status: .unprocessableContent)
                    }
                    guard !names.contains(name) else {
                        throw .invalidField(
                            "features[\(index)]", reason: "names \(name) again (each feature once)",
                            status: .unprocessableContent)
                    }
                    names.append(name)
                }
                features = names
            case ("features", _):
                throw .invalidField(
                    "features", reason: "must be a non-empty array of feature names", status: .unprocessableContent)
            case ("role", .string(let text)) where text == ParticipantRole.member.rawValue:
                continue
            case ("role", _):
                throw .invalidField(
                    "role", reason: "must be \"member\" (a session has one owner, its creator)",
                    status: .unprocessableContent)
            case ("uses", .number(let number)) where number == number.rounded() && (1...100).contains(number):
                uses = Int(number)
            case ("uses", _):
                throw .invalidField("uses", reason: "must be an integer, 1 to 100", status: .unprocessableContent)
            case ("ttlSeconds", .number(let number)) where (60...Double(ContactRoutes.longestLifetime)).contains(number):
                lifetime = number
            case ("ttlSeconds", _):
                throw .invalidField(
                    "ttlSeconds", reason: "must be 60 to \(ContactRoutes.longestLifetime)",
                    status: .unprocessableContent)
            default:
                throw .invalidField(
                    member, reason: "is not a member of a join invitation (purpose, features, role, uses, ttlSeconds)",
                    status: .unprocessableContent)
            }
        }
        let chosen = features ?? shared
        guard !chosen.isEmpty else {
            throw .invalidField(
                "features", reason: "must name a feature that can be shared, and this session has none",
                status: .unprocessableContent)
        }
        return JoinInvitationRequest(features: chosen, uses: uses, lifetime: lifetime)
    }
}
