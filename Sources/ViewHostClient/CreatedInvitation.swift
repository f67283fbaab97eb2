import Foundation
import ViewHostAPI

/// The server's answer to an invitation created (`201 {"id","code","expiresAt","uses"}`): the code is shown this
/// once, for the person to send to whom they invite.
public struct CreatedInvitation: Codable, Sendable, Equatable {
    /// The invitation's id (to list or withdraw it).
    public let id: String
    /// The code the other person redeems (`POST /v1/sessions/{id}/contacts`); never shown again.
    public let code: String
    /// When it stops working (ISO 8601).
    public let expiresAt: String
    /// How many times it may be redeemed.
    public let uses: Int
}

extension ViewHostSession {
    /// Invokes an invitation action a snapshot offers (`"target":"invitations"`, such as the chat list's `invite`):
    /// posts the invitation's body, its placeholders filled from `parameters` (`["name": "Alice"]`), to its `href`.
    /// ``perform(_:filling:)-([String:ActionValue])`` refuses such an action, whose answer is an invitation.
    /// - Returns: The invitation, with its code.
    @concurrent
    public func invite(
        _ action: ActionDescriptor, filling parameters: [String: ActionValue] = [:]
    ) async throws(ViewHostError) -> CreatedInvitation {
        guard action.target == .invitations, let href = action.href else {
            throw ViewHostError(
                kind: .invalidRequest, title: "invalid request",
                detail: "the '\(action.event)' action is not an invitation read from a served snapshot")
        }
        switch action.invitationBody(filling: parameters) {
        case .success(let body):
            let request = transport.request(
                "POST", try transport.url(href), token: token, body: try JSONValue.encode(body))
            let (data, _) = try await transport.expecting([201], request)
            return try transport.decode(CreatedInvitation.self, from: data, status: 201)
        case .failure(let problem):
            throw ViewHostError(
                kind: .invalidRequest, title: "invalid request",
                detail: "the invitation action's {\(problem.name)} \(problem.reason)")
        }
    }
}
