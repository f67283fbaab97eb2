import Foundation
import HTTPCore
import PersonFeature
import Testing
import TestSupport
import ViewHostAPI
import ViewHostJSON
import ViewModelCore

@testable import ViewHost

/// Snapshots that depend on who is looking, over HTTP (issue 43): a member reads its own view of a
/// ``ViewerDependentFeature`` with an `ETag` of its own (the viewer is part of the tag, of the past versions kept and
/// of a patch's base), and a feature that does not depend on its viewer serves every participant the same bytes under
/// the same tag.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ViewerSnapshotHTTPTests {
    /// What clients post to `ballot`: `{"type":"vote"}`.
    enum BallotIntent: FeatureIntent {
        case vote

        enum Kind: String, IntentKind { case vote }

        static let feature = "ballot"
        var kind: Kind { .vote }

        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: IntentCodingKeys.self).kind(Kind.self)
            self = .vote
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: IntentCodingKeys.self)
            try container.encode(kind: kind)
        }
    }

    /// Votes, each by who cast it: every viewer sees the total and its own count.
    enum Ballot: ViewerDependentFeature {
        struct Snapshot: FeatureSnapshot {
            static let feature = "ballot"
            /// Long enough that a patch of the counts is smaller than the whole snapshot (else the whole one goes).
            var question = String(repeating: "Which day of next week suits everyone for the team lunch? ", count: 8)
            var total: Int
            var yours: Int
        }

        static let isShareable = true

        static func event(for intent: BallotIntent) throws(IntentRejection) -> Int { 1 }
        static func check(_ event: Int, in state: [String]) throws(EventRefusal) {}
        static func apply(_ event: Int, to state: inout [String], context: inout FeatureContext<Ballot>) {
            state.append(context.participant ?? Participant.ownerID)
            context.markChanged()
        }
        static func snapshot(of state: [String], settings: SessionSettings, viewer: Viewer) -> Snapshot {
            Snapshot(total: state.count, yours: state.count { $0 == viewer.participant })
        }
    }

    static let vote = #"{"type":"vote"}"#
    static let person = #"{"type":"setPerson","firstName":"Bea","lastName":"Viewer","birthdate":"1990-01-01"}"#

    static func run(_ body: (TestApp, TestSession, (token: String, id: String)) async throws -> Void) async throws {
        let features = try HostedFeatures(
            [.person, .feature(Ballot.self, FeatureHosting(initialState: { _ in [] }))],
            settings: FixedFeatureSettings())
        try await TestApp.run({ $0.features = features }) { app in
            let owner = try await app.createSession(body: #"{"features":["person","ballot"]}"#)
            let invited = try await app.request(
                "POST", owner.path("invitations"), token: owner.token, body: #"{"purpose":"join"}"#)
            try #require(invited.status == 201, "\(invited)")
            let code = try #require(try invited.json["code"].string)
            let joined = try await app.request("POST", "/v1/invitations/\(code)", body: #"{"name":"Bea"}"#)
            try #require(joined.status == 201, "\(joined)")
            let bea = (
                token: try #require(try joined.json["token"].string),
                id: try #require(try joined.json["participant"]["id"].string)
            )
            try await body(app, owner, bea)
        }
    }

    @Test func eachViewerReadsItsOwnViewUnderItsOwnTagAndAPlainFeatureIsShared() async throws {
        try await Self.run { app, owner, bea in
            let member = TestSession(id: owner.id, token: bea.token)
            #expect(try await app.post(member, "ballot", Self.vote).status == 202)
            #expect(try await app.post(owner, "ballot", Self.vote).status == 202)
            #expect(try await app.post(member, "ballot", Self.vote).status == 202)
            #expect(try await app.post(member, "person", Self.person).status == 202)

            let owners = try await app.request("GET", owner.path("ballot"), token: owner.token)
            let beas = try await app.request("GET", owner.path("ballot"), token: bea.token)
            #expect(owners.header("ETag") == "\"4\"")
            #expect(beas.header("ETag") == "\"4.\(bea.id)\"")
            #expect(try owners.json["yours"].int == 1 && owners.json["total"].int == 3)
            #expect(try beas.json["yours"].int == 2 && beas.json["total"].int == 3)
            // Each tag is its viewer's: the own one is 304, the other's is not.
            let beaUnchanged = try await app.request(
                "GET", owner.path("ballot"), token: bea.token, headers: [("If-None-Match", "\"4.\(bea.id)\"")])
            #expect(beaUnchanged.status == 304)
            let ownersTagForBea = try await app.request(
                "GET", owner.path("ballot"), token: bea.token, headers: [("If-None-Match", "\"4\"")])
            #expect(ownersTagForBea.status == 200 && ownersTagForBea.body == beas.body)
            let beasTagForOwner = try await app.request(
                "GET", owner.path("ballot"), token: owner.token, headers: [("If-None-Match", "\"4.\(bea.id)\"")])
            #expect(beasTagForOwner.status == 200 && beasTagForOwner.body == owners.body)

            // A past version, as each saw it.
            let beasPast = try await app.request("GET", owner.path("ballot") + "?version=3", token: bea.token)
            let ownersPast = try await app.request("GET", owner.path("ballot") + "?version=3", token: owner.token)
            #expect(beasPast.header("ETag") == "\"3.\(bea.id)\"" && ownersPast.header("ETag") == "\"3\"")
            #expect(try beasPast.json["yours"].int == 1 && ownersPast.json["yours"].int == 1)
            let beasFirst = try await app.request("GET", owner.path("ballot") + "?version=2", token: bea.token)
            let ownersFirst = try await app.request("GET", owner.path("ballot") + "?version=2", token: owner.token)
            #expect(try beasFirst.json["yours"].int == 1 && ownersFirst.json["yours"].int == 0)

            // A patch from Bea's version 2 to her version 4, made between two of her own views.
            let patched = try await app.request(
                "GET", owner.path("ballot"), token: bea.token,
                headers: [("If-None-Match", "\"2.\(bea.id)\""), ("Accept", "application/json-patch+json")])
            #expect(patched.header("Content-Type") == "application/json-patch+json", "\(patched)")
            #expect(patched.header("ETag") == "\"4.\(bea.id)\"")
            let operations = try JSONPatch.operations(JSONParser.parse(patched.body, maxDepth: 64))
            let applied = try JSONPatch.apply(operations, to: JSONParser.parse(beasFirst.body, maxDepth: 64))
            #expect(applied.isEquivalent(to: try JSONParser.parse(beas.body, maxDepth: 64)))
            // Another member's tag is no base of Bea's patch: the whole snapshot.
            let other = try await app.request(
                "GET", owner.path("ballot"), token: bea.token,
                headers: [("If-None-Match", "\"2.pother\""), ("Accept", "application/json-patch+json")])
            #expect(other.header("Content-Type") == "application/json" && other.body == beas.body)

            // A feature that does not depend on its viewer: the same bytes under the same tag for both.
            let ownersPerson = try await app.request("GET", owner.path("person"), token: owner.token)
            let beasPerson = try await app.request("GET", owner.path("person"), token: bea.token)
            #expect(ownersPerson.status == 200 && ownersPerson.header("ETag") == "\"2\"")
            #expect(beasPerson.header("ETag") == ownersPerson.header("ETag") && beasPerson.body == ownersPerson.body)
        }
    }

    @Test func aMembersStreamCarriesItsOwnViewAndPatchesBetweenItsOwnViews() async throws {
        try await Self.run { app, owner, bea in
            let member = TestSession(id: owner.id, token: bea.token)
            let stream = try SSEReader(
                port: app.port, path: owner.path("stream") + "?patches=1&features=ballot", token: bea.token)
            #expect(try await stream.head().status == 200)
            var first = try await stream.next()
            while first.event == nil { first = try await stream.next() }
            #expect(first.event == "ballot")
            let firstBody = try JSONParser.parse(Array((first.data ?? "").utf8), maxDepth: 64)
            #expect(firstBody["yours"] == .number(0))
            #expect(try await app.post(member, "ballot", Self.vote).status == 202)
            let change = try await stream.next()
            #expect(change.event == "ballot.patch", "\(change)")
            let frame = try JSONParser.parse(Array((change.data ?? "").utf8), maxDepth: 64)
            guard let patch = frame["patch"], frame["base"] == .number(1) else {
                Issue.record("not a patch frame: \(change)")
                return
            }
            let applied = try JSONPatch.apply(JSONPatch.operations(patch), to: firstBody)
            let read = try await app.request("GET", owner.path("ballot"), token: bea.token)
            #expect(try read.json["yours"].int == 1)
            #expect(applied.isEquivalent(to: try JSONParser.parse(read.body, maxDepth: 64)))
        }
    }

    @Test func aTagNamesItsViewerAndAPatchRunsBetweenOneViewersViews() throws {
        let bea = Viewer(participant: "pbea")
        #expect(EncodedSnapshot.etag(version: 7, viewer: nil) == "\"7\"")
        #expect(EncodedSnapshot.etag(version: 7, viewer: bea) == "\"7.pbea\"")
        let shared = EncodedSnapshot(version: 1, body: Array(#"{"version":1,"yours":0}"#.utf8))
        let own = EncodedSnapshot(version: 2, body: Array(#"{"version":2,"yours":1}"#.utf8), viewer: bea)
        let ownBase = EncodedSnapshot(version: 1, body: Array(#"{"version":1,"yours":0}"#.utf8), viewer: bea)
        #expect(own.patch(from: shared) == nil, "the shared view is no base of a member's own")
        #expect(own.patch(from: ownBase) != nil)

        func request(_ tag: String) -> HTTPRequest {
            HTTPRequest(
                method: .get, target: "/", headers: [.ifNoneMatch: tag, .accept: "application/json-patch+json"])
        }
        #expect(HistoryRoutes.patchBase(request("\"7\"")) == 7)
        #expect(HistoryRoutes.patchBase(request("\"7.pbea\"")) == nil, "no member's tag is the shared view's")
        #expect(HistoryRoutes.patchBase(request("\"7.pbea\""), viewer: bea) == 7)
        #expect(HistoryRoutes.patchBase(request("W/\"7.pbea\""), viewer: bea) == 7)
        #expect(HistoryRoutes.patchBase(request("\"7.pcai\""), viewer: bea) == nil)
        #expect(HistoryRoutes.patchBase(request("\"7.pcai\", \"6.pbea\""), viewer: bea) == 6)
        #expect(HistoryRoutes.patchBase(request("\"7\""), viewer: bea) == 7, "the version alone, as the stream gave it")
    }
}
