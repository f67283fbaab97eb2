import Foundation
import Testing
import TestSupport
import ViewHostTesting
import ViewModelCore

/// ViewHostTesting's network of sessions: contacts made, deliveries asserted as data and run by the manual clock.
struct TestNetworkTests {
    static let key = LettersApp.key

    static func network(_ names: [String]) throws -> TestNetwork {
        TestNetwork(Dictionary(uniqueKeysWithValues: try names.map { ($0, try TestHost(features: [.letters])) }))
    }

    @Test func lettersArriveOnceInOrderWhenTheClockMoves() throws {
        var network = try Self.network(["alice", "bob"])
        let (toBob, toAlice) = network.connect("alice", named: "Alice", to: "bob", named: "Bob", in: Self.key)
        #expect(network["bob"].state(of: Self.key).contacts.map(\.name) == ["Alice"])
        #expect(network["alice"].state(of: Self.key).contacts.isEmpty, "told when the introduction is delivered")
        #expect(
            network.deliveries(of: Self.key, from: "bob")
                == [TestDelivery(from: "bob", to: "alice", address: toAlice, number: 1, event: nil, introduction: "Bob")])
        network.advance(by: .zero)
        #expect(network["alice"].state(of: Self.key).contacts.map(\.name) == ["Bob"])

        try network["alice"].send(LettersIntent.write(to: "Bob", text: "one"), to: Self.key)
        try network["alice"].send(LettersIntent.write(to: "Bob", text: "two"), to: Self.key)
        #expect(network.deliveries(of: Self.key, from: "alice").map(\.event) == [.letter(text: "one"), .letter(text: "two")])
        #expect(network.deliveries(of: Self.key, from: "alice").map(\.to) == ["bob", "bob"])
        #expect(network.deliveries(of: Self.key, from: "alice").map(\.address) == [toBob, toBob])
        let steps = network.advance(by: .seconds(1))
        #expect(steps.map(\.host) == ["bob", "alice"], "applied by the receiver, then acknowledged by the sender")
        #expect(network["bob"].state(of: Self.key).received.map(\.text) == ["one", "two"])
        #expect(network["bob"].snapshots(of: Self.key).last?.snapshot.received.map(\.from) == ["Alice", "Alice"])
        #expect(network.deliveries(of: Self.key, from: "alice").isEmpty)
        #expect(network.advance(by: .seconds(1)).isEmpty, "nothing is delivered twice")
    }

    @Test func anEndedSessionsLettersComeBackAndAMadeUpAddressReachesNoOne() throws {
        var network = try Self.network(["alice", "bob", "carol"])
        network.connect("alice", named: "Alice", to: "bob", named: "Bob", in: Self.key)
        network.connect("carol", named: "Carol", to: "alice", named: "Alice", in: Self.key)
        network.deliver()
        network.end("bob")
        try network["alice"].send(LettersIntent.write(to: "Bob", text: "gone"), to: Self.key)
        try network["alice"].send(LettersIntent.write(to: "Carol", text: "here"), to: Self.key)
        network.deliver()
        #expect(network["alice"].state(of: Self.key).undelivered == ["gone to Bob: ended"])
        #expect(network["carol"].state(of: Self.key).received.map(\.text) == ["here"])

        // Carol's state holds Alice's address for Bob (a copy of another session's conversation): it leads nowhere.
        var carol = network["carol"]
        let stolen = network["alice"].state(of: Self.key).contacts.first { $0.name == "Bob" }?.address
        try carol.send(LettersApp.Event.met(name: "Bob?", address: try #require(stolen)), to: Self.key, source: .view)
        try carol.send(LettersIntent.write(to: "Bob?", text: "hello"), to: Self.key)
        network["carol"] = carol
        network.deliver()
        #expect(network["carol"].state(of: Self.key).undelivered == ["hello to Bob?: unknownAddress"])
    }
}
