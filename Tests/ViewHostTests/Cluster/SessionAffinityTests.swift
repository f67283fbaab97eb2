@testable import ViewHost
import Testing
import ViewModelCore

/// A session moves to the node that alone asks for it, after enough requests in a row; one that is asked for
/// through several nodes (round robin) or directly stays put.
struct SessionAffinityTests {
    let id = SessionID("s1")

    @Test func aSessionOnlyOneNodeAsksForGoesThereOnce() {
        let affinity = SessionAffinity()
        for _ in 1..<SessionAffinity.handOffAfter {
            affinity.note(id, forwardedBy: "b")
            #expect(!affinity.handsOff(id, to: "b"))
        }
        affinity.note(id, forwardedBy: "b")
        #expect(!affinity.handsOff(id, to: "c"))
        #expect(affinity.handsOff(id, to: "b"))
        #expect(!affinity.handsOff(id, to: "b"), "said once; the count starts again")
    }

    @Test func aDirectRequestOrAnotherNodeStartsTheCountAgain() {
        let affinity = SessionAffinity()
        for round in 0..<(SessionAffinity.handOffAfter * 4) {
            // Round robin over three nodes, this one included.
            affinity.note(id, forwardedBy: ["b", "c", nil][round % 3])
            #expect(!affinity.handsOff(id, to: "b") && !affinity.handsOff(id, to: "c"))
        }
    }

    @Test func thePathNamesTheSession() {
        #expect(HopGate.session(in: "/v1/sessions/abc/chat/events") == SessionID("abc"))
        #expect(HopGate.session(in: "/v1/sessions/abc") == SessionID("abc"))
        #expect(HopGate.session(in: "/v1/sessions") == nil)
        #expect(HopGate.session(in: "/v1/sessions//x") == nil)
        #expect(HopGate.session(in: "/metrics") == nil)
    }
}

extension SessionAffinityTests {
    @Test func aSessionHandedHereStaysAWhileWhoeverAsks() {
        let affinity = SessionAffinity()
        affinity.settle(id)
        for _ in 0..<SessionAffinity.handOffAfter { affinity.note(id, forwardedBy: "c") }
        #expect(!affinity.handsOff(id, to: "c"), "it just moved here")
    }
}
