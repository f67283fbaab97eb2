import Foundation
import Testing
import TestSupport
import ViewModelCore

/// The memory store's participants: the scenario every directory passes, and a session's participants and join
/// invitations forgotten with it.
struct MemoryParticipantDirectoryTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theDirectoryScenarioHolds() throws {
        let directory = MemoryParticipantDirectory()
        #expect(try ParticipantDirectoryScenario.run(directory, directory, start: start) == [])
    }

    @Test func aForgottenSessionKeepsNoParticipantsNorInvitations() throws {
        let directory = MemoryParticipantDirectory()
        let session = SessionID.random()
        let invitation = ParticipantDirectoryScenario.invitation("code", of: session, uses: 2, at: start)
        #expect(try directory.addJoinInvitation(invitation, openLimit: 5, now: start))
        let joining = Joining(
            digest: invitation.digest, id: "pa", name: "A", tokenDigest: [1], maxParticipants: 5)
        guard case .joined = try directory.join(joining, now: start) else {
            Issue.record("not joined")
            return
        }
        directory.forget(session)
        #expect(try directory.participants(of: session).isEmpty)
        #expect(try directory.joinInvitations(of: session, now: start).isEmpty)
        #expect(try directory.join(joining, now: start) == .unknown)
    }

    @Test(arguments: [
        ("pbea.SECRET", "pbea", "SECRET"), ("p1.a.b", "p1", "a.b"),
    ])
    func aParticipantsTokenNamesItsIDAndSecret(token: String, id: String, secret: String) {
        #expect(Participant.parseToken(token)?.id == id)
        #expect(Participant.parseToken(token)?.secret == secret)
    }

    @Test(arguments: ["ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRST", ".secret", "pbea.", "p-b.secret", "péa.x"])
    func anythingElseIsNoParticipantsToken(token: String) {
        #expect(Participant.parseToken(token) == nil)
    }

    @Test func aNameIsOneTo64CharactersNotOnlyWhiteSpace() {
        #expect(Participant.isValidName("Bea"))
        #expect(Participant.isValidName(String(repeating: "é", count: 64)))
        #expect(!Participant.isValidName(String(repeating: "a", count: 65)))
        #expect(!Participant.isValidName(""))
        #expect(!Participant.isValidName("  "))
        #expect(!Participant.isValidName("a\u{0}b"))
    }
}
