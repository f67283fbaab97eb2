import Foundation
import SharedListAPI
import SharedListFeature
import Testing
import ViewHostAPI
import ViewHostTesting
import ViewModelCore

/// The shared list in a ``TestHost`` (the owner's events), and `apply` with a context naming a member, as the server
/// calls it for a member's event: intents in, states and snapshots out, compared by equality.
struct SharedListAppTests {
    static func host() throws -> TestHost { try TestHost(features: [.sharedList]) }

    static func items(_ host: TestHost) -> [ListState.Item] { host.state(of: SharedListApp.key).items }

    /// Applies `intent` as `participant` sent it: checked, then applied with the context the server gives a client's
    /// event (its credential's participant).
    static func send(_ intent: ListIntent, by participant: String, to state: inout ListState) throws {
        let event = try SharedListApp.event(for: intent)
        try SharedListApp.check(event, in: state)
        var context = FeatureContext<SharedListApp>(now: Date(timeIntervalSince1970: 0), participant: participant)
        SharedListApp.apply(event, to: &state, context: &context)
    }

    @Test func theListIsShareable() {
        #expect(SharedListApp.isShareable)
    }

    @Test func eachItemKeepsWhoAddedItFromTheContext() throws {
        var state = ListState()
        try Self.send(.add(text: " Milk  "), by: Participant.ownerID, to: &state)
        try Self.send(.add(text: "Bread"), by: "p7x", to: &state)
        #expect(
            state.items == [
                .init(id: "i1", text: "Milk", done: false, addedBy: "owner"),
                .init(id: "i2", text: "Bread", done: false, addedBy: "p7x"),
            ])
        // Anyone may tick or remove anyone's item: the list is theirs together; the author stays.
        try Self.send(.check(item: "i1"), by: "p7x", to: &state)
        try Self.send(.remove(item: "i2"), by: Participant.ownerID, to: &state)
        #expect(state.items == [.init(id: "i1", text: "Milk", done: true, addedBy: "owner")])
        let snapshot = SharedListApp.snapshot(of: state, settings: SessionSettings())
        #expect(snapshot.items.map(\.addedBy) == ["owner"])
    }

    @Test func eachViewerCountsTheItemsItAddedAndTheOwnersViewIsTheDefault() throws {
        var state = ListState()
        try Self.send(.add(text: "Milk"), by: Participant.ownerID, to: &state)
        try Self.send(.add(text: "Bread"), by: "p7x", to: &state)
        try Self.send(.add(text: "Eggs"), by: "p7x", to: &state)
        let settings = SessionSettings()
        #expect(SharedListApp.dependsOnViewer)
        #expect(SharedListApp.snapshot(of: state, settings: settings, viewer: Viewer(participant: "p7x")).addedByYou == 2)
        #expect(SharedListApp.snapshot(of: state, settings: settings, viewer: .owner).addedByYou == 1)
        #expect(SharedListApp.snapshot(of: state, settings: settings, viewer: Viewer(participant: "q1")).addedByYou == 0)
        // What an export and a caller without a viewer get: the owner's view.
        #expect(SharedListApp.snapshot(of: state, settings: settings).addedByYou == 1)
        // The rest is the same for everyone.
        let member = SharedListApp.snapshot(of: state, settings: settings, viewer: Viewer(participant: "p7x"))
        let owner = SharedListApp.snapshot(of: state, settings: settings, viewer: .owner)
        #expect(member.items == owner.items && member.remaining == owner.remaining)
    }

    @Test func theOwnersEventsInTheTestHostAreTheOwners() throws {
        var host = try Self.host()
        try host.send(ListIntent.add(text: "Milk"), to: SharedListApp.key)
        #expect(Self.items(host).map(\.addedBy) == [Participant.ownerID])
    }

    @Test func checkAndUncheckAgreeWhenTwoPeopleTickAtOnce() throws {
        var host = try Self.host()
        try host.send([ListIntent.add(text: "Milk"), .add(text: "Eggs")], to: SharedListApp.key)
        try host.send(ListIntent.check(item: "i1"), to: SharedListApp.key)
        // The second tick of the same item changes nothing (no new version), where a toggle would have undone it.
        let again = try host.send(ListIntent.check(item: "i1"), to: SharedListApp.key)
        #expect(again.versions.isEmpty)
        #expect(Self.items(host).map(\.done) == [true, false])
        let snapshot = host.snapshot(of: SharedListApp.key)
        #expect(snapshot.remaining == 1)
        #expect(snapshot.summaryLine == "2 items, 1 left")
        #expect(snapshot.items[0].actions.toggle.body() == .success(["type": "uncheck", "item": "i1"]))
        #expect(snapshot.items[1].actions.toggle.body() == .success(["type": "check", "item": "i2"]))
        #expect(snapshot.actions.add.body(filling: ["text": "Tea"]) == .success(["type": "add", "text": "Tea"]))
        try host.send(ListIntent.uncheck(item: "i1"), to: SharedListApp.key)
        #expect(Self.items(host).map(\.done) == [false, false])
    }

    @Test func refusalsSayWhyAndChangeNothing() throws {
        var host = try Self.host()
        #expect(throws: IntentRejection(field: "text", reason: "must not be empty")) {
            try host.send(ListIntent.add(text: " \t "), to: SharedListApp.key)
        }
        #expect(
            throws: SessionRefusal.refused(EventRefusal(reason: "There is no item 'i9'.", allowed: [ListIntent.Kind.add]), index: 0)
        ) {
            try host.send(ListIntent.remove(item: "i9"), to: SharedListApp.key)
        }
        #expect(host.version(of: SharedListApp.key) == 1)
    }

    @Test func theListTakesAtMostMaxItems() throws {
        var host = try Self.host()
        try host.send((1...ListIntent.maxItems).map { ListIntent.add(text: "Item \($0)") }, to: SharedListApp.key)
        #expect(host.snapshot(of: SharedListApp.key).actions.add.isEnabled == false)
        #expect(throws: SessionRefusal.self) { try host.send(ListIntent.add(text: "One more"), to: SharedListApp.key) }
        #expect(Self.items(host).count == ListIntent.maxItems)
        try host.send(ListIntent.remove(item: "i1"), to: SharedListApp.key)
        try host.send(ListIntent.add(text: "One more"), to: SharedListApp.key)
        #expect(Self.items(host).last?.id == "i\(ListIntent.maxItems + 1)")
    }

    @Test func aTooLongTextIsRefusedByTheIntentsLimit() throws {
        let long = String(repeating: "a", count: ListIntent.textLimit.characters + 1)
        let data = Data(#"{"type":"add","text":"\#(long)"}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(ListIntent.self, from: data) }
        let fits = Data(#"{"type":"add","text":"\#(long.dropLast())"}"#.utf8)
        #expect(try JSONDecoder().decode(ListIntent.self, from: fits) == .add(text: String(long.dropLast())))
    }

    @Test func aStateFromOutsideIsCheckedAgainstTheSameLimits() throws {
        var state = ListState()
        state.items = [.init(id: "i1", text: "Milk", done: false, addedBy: "p1")]
        state.nextID = 2
        try SharedListApp.validate(state: state)
        state.items[0].addedBy = "not an id!"
        #expect(throws: ValueRejection.self) { try SharedListApp.validate(state: state) }
        state.items[0].addedBy = "p1"
        state.items[0].text = ""
        #expect(throws: ValueRejection.self) { try SharedListApp.validate(state: state) }
        #expect(throws: ValueRejection.self) {
            try SharedListApp.validate(event: .add(text: String(repeating: "x", count: ListIntent.textLimit.characters + 1)))
        }
    }

    @Test func intentsRoundTripThroughTheirJSON() throws {
        for intent in [ListIntent.add(text: "Milk"), .check(item: "i1"), .uncheck(item: "i1"), .remove(item: "i2")] {
            let data = try JSONEncoder().encode(intent)
            #expect(try JSONDecoder().decode(ListIntent.self, from: data) == intent)
        }
    }
}
