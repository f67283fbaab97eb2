import Foundation
import HTTPCore
import Testing
import TestSupport
import ViewHost

/// The bounds of a shared session (issue 43): open join invitations (429) and participants (422) per session;
/// streams (429) and events per second (429) per member, each with its own allowance, the owner bounded by the
/// session's alone (as before sessions were shared). The
/// rate's clock is the test's (``TestApp/limitsClock``): no token comes back during a test.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ParticipantLimitsHTTPTests {
    static let person = #"{"type":"setPerson","firstName":"Bea","lastName":"Limits","birthdate":"1990-01-01"}"#

    /// A member of `owner`'s session, joined by a new invitation.
    static func join(_ app: TestApp, _ owner: TestSession, as name: String) async throws -> TestResponse {
        let invited = try await app.request(
            "POST", owner.path("invitations"), token: owner.token, body: #"{"purpose":"join"}"#)
        try #require(invited.status == 201, "\(invited)")
        let code = try #require(try invited.json["code"].string)
        return try await app.request("POST", "/v1/invitations/\(code)", body: #"{"name":"\#(name)"}"#)
    }

    @Test func openInvitationsAndParticipantsPerSessionAreBounded() async throws {
        try await TestApp.run({
            $0.contacts.maxOpenJoinInvitations = 1
            $0.contacts.maxParticipants = 1
        }) { app in
            let owner = try await app.createQuietSession()
            let open = try await app.request(
                "POST", owner.path("invitations"), token: owner.token, body: #"{"purpose":"join"}"#)
            #expect(open.status == 201)
            let second = try await app.request(
                "POST", owner.path("invitations"), token: owner.token, body: #"{"purpose":"join"}"#)
            #expect(second.status == 429, "\(second)")
            #expect(try second.json["detail"].string?.contains("participants.maxOpenInvitations") == true)
            let code = try #require(try open.json["code"].string)
            let bea = try await app.request("POST", "/v1/invitations/\(code)", body: #"{"name":"Bea"}"#)
            #expect(bea.status == 201)
            let cid = try await Self.join(app, owner, as: "Cid")
            #expect(cid.status == 422 && cid.problemFields == ["participants.maxPerSession"], "\(cid)")
        }
    }

    @Test func eachParticipantHasItsOwnEventRateAndStreams() async throws {
        try await TestApp.run({
            $0.rateLimits.eventsPerSecondPerParticipant = 2
            $0.streams.maxPerParticipant = 1
        }) { app in
            let owner = try await app.createQuietSession()
            let joined = try await Self.join(app, owner, as: "Bea")
            try #require(joined.status == 201)
            let bea = TestSession(id: owner.id, token: try #require(try joined.json["token"].string))
            for _ in 0..<2 { #expect(try await app.post(bea, "person", Self.person).status == 202) }
            let refused = try await app.post(bea, "person", Self.person)
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") != nil)
            #expect(try refused.json["detail"].string?.contains("limits.eventsPerSecondPerParticipant") == true)
            for _ in 0..<3 {
                #expect(try await app.post(owner, "person", Self.person).status == 202, "the session's rate bounds the owner")
            }

            let first = try SSEReader(port: app.port, path: bea.path("stream"), token: bea.token)
            #expect(try await first.head().status == 200)
            let second = try SSEReader(port: app.port, path: bea.path("stream"), token: bea.token)
            let refusedStream = try await second.head()
            #expect(refusedStream.status == 429)
            #expect(try refusedStream.json["detail"].string?.contains("streams.maxPerParticipant") == true)
            var owners: [SSEReader] = []
            for _ in 0..<2 {
                let reader = try SSEReader(port: app.port, path: owner.path("stream"), token: owner.token)
                #expect(try await reader.head().status == 200, "the session's share bounds the owner")
                owners.append(reader)
            }
            withExtendedLifetime((first, owners)) {}
        }
    }
}
