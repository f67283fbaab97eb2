import ChatAPI
import Foundation
import Testing
import ViewHostAPI
import ViewHostTesting
import ViewModelCore

@testable import ChatFeature

/// The chat reaching people: two chat sessions in a ``TestNetwork``, introduced as an invitation redeemed would
/// introduce them, send each other messages through the library's deliveries instead of the bot.
struct ChatPeopleTests {
    static let key = ChatApp.key

    /// Alice and Bob, each on the chat list (John loaded), introduced: Alice invited, Bob redeemed.
    static func pair() throws -> TestNetwork {
        var network = TestNetwork(["alice": TestHost(ChatApp.self, state: ChatState()), "bob": TestHost(ChatApp.self, state: ChatState())])
        for name in ["alice", "bob"] { try network[name].send(ChatIntent.appear, to: key) }
        network.advance(by: .seconds(1))
        network.connect("alice", named: "Alice", to: "bob", named: "Bob", in: key)
        network.deliver()
        return network
    }

    static func row(_ contact: String, of host: TestHost) -> ChatListItemViewModel? {
        host.snapshot(of: key).chatList.chats.first { $0.contact == contact }
    }

    static func messages(_ contact: String, of host: TestHost) -> [Message] {
        Array(host.state(of: key).model.chat(for: contact)?.messages ?? [])
    }

    @Test func aContactMadeIsAChatUnderTheNameTheOtherGaveWithItsActions() throws {
        let network = try Self.pair()
        let row = try #require(Self.row("Bob", of: network["alice"]))
        #expect(row.contactID == "p1")
        #expect(row.contactName == "Bob")
        #expect(row.blocked == false)
        #expect(row.actions.remove?.event == "removeContact")
        #expect(row.actions.block?.fields["contact"] == .string("Bob"))
        #expect(row.actions.unblock == nil)
        #expect(Self.row("Alice", of: network["bob"])?.contactID == "p1")
        // John stays a bot: his row has no person's members.
        let john = try #require(Self.row("John", of: network["alice"]))
        #expect(john.contactID == nil && john.actions.remove == nil)
    }

    @Test func aMessageEachWayArrivesAndTheReadReceiptComesBack() throws {
        var network = try Self.pair()
        try network["alice"].send(ChatIntent.openChat(contact: "Bob"), to: Self.key)
        try network["alice"].send(ChatIntent.send(text: "Hi Bob", contact: "Bob"), to: Self.key)
        // Sent in the same step: durable from its commit, no simulated delay and no bot.
        #expect(Self.messages("Bob", of: network["alice"]).map(\.state) == [.sent])
        #expect(network["alice"].timers(of: Self.key).isEmpty)
        #expect(network.deliveries(of: Self.key, from: "alice").map(\.to) == ["bob"])
        network.deliver()
        // Bob is on the chat list: a banner, an unread count and the badge, as with the bot's push.
        let bob = network["bob"].snapshot(of: Self.key)
        #expect(bob.notifications.map(\.title) == ["Alice"])
        #expect(bob.notifications.map(\.body) == ["Hi Bob"])
        #expect(Self.row("Alice", of: network["bob"])?.unreadMessageCount == 1)
        #expect(bob.badge == 2, "John's message and Alice's")
        #expect(network["alice"].snapshot(of: Self.key).conversations["Bob"]?.messages.last?.readStatus == .unread)

        // Bob opens the chat: he reads it, and the receipt makes Alice's message read (✓).
        try network["bob"].send(ChatIntent.openChat(contact: "Alice"), to: Self.key)
        #expect(Self.row("Alice", of: network["bob"])?.unreadMessageCount == 0)
        network.deliver()
        let mine = try #require(network["alice"].snapshot(of: Self.key).conversations["Bob"]?.messages.last)
        #expect(mine.readStatus == .read)
        #expect(mine.message == "Hi Bob")

        // Bob answers while Alice's chat is open: it arrives on her screen at once, read at once, and Bob sees ✓.
        try network["bob"].send(ChatIntent.send(text: "Hi Alice"), to: Self.key)
        network.deliver()
        let alice = network["alice"].snapshot(of: Self.key)
        #expect(alice.conversations["Bob"]?.messages.map(\.message) == ["Hi Bob", "Hi Alice"])
        #expect(alice.notifications.isEmpty)
        #expect(Self.row("Bob", of: network["alice"])?.unreadMessageCount == 0)
        #expect(network["bob"].snapshot(of: Self.key).conversations["Alice"]?.messages.last?.readStatus == .read)
        #expect(network["alice"].log.contains { $0.event == "personMessage" && $0.source == .session })
    }

    @Test func aNameThatClashesGetsASuffix() throws {
        var network = TestNetwork([
            "alice": TestHost(ChatApp.self, state: ChatState()), "john": TestHost(ChatApp.self, state: ChatState()), "bob": TestHost(ChatApp.self, state: ChatState()),
            "bob2": TestHost(ChatApp.self, state: ChatState()),
        ])
        try network["alice"].send(ChatIntent.appear, to: Self.key)
        network.advance(by: .seconds(1))
        for (host, name) in [("john", "John"), ("bob", "Bob"), ("bob2", "Bob")] {
            network.connect("alice", named: "Alice", to: host, named: name, in: Self.key)
            network.deliver()
        }
        let rows = network["alice"].snapshot(of: Self.key).chatList.chats
        #expect(rows.map(\.contact) == ["John", "John (2)", "Bob", "Bob (2)"])
        #expect(rows.map(\.contactID) == [nil, "p1", "p2", "p3"])
        #expect(rows.map(\.contactName) == [nil, "John", "Bob", "Bob"])
        // The suffixed name is the chat's, for openChat and send as for any other.
        try network["alice"].send(ChatIntent.send(text: "Which Bob?", contact: "Bob (2)"), to: Self.key)
        network.deliver()
        #expect(network["bob2"].snapshot(of: Self.key).notifications.map(\.body) == ["Which Bob?"])
        #expect(network["bob"].snapshot(of: Self.key).notifications.isEmpty)
    }

    @Test func aBlockedContactsMessagesAreDroppedSilentlyUntilUnblocked() throws {
        var network = try Self.pair()
        try network["bob"].send(ChatIntent.blockContact(contact: "Alice"), to: Self.key)
        #expect(Self.row("Alice", of: network["bob"])?.blocked == true)
        #expect(Self.row("Alice", of: network["bob"])?.actions.unblock?.event == "unblockContact")
        try network["alice"].send(ChatIntent.send(text: "Anyone?", contact: "Bob"), to: Self.key)
        network.deliver()
        #expect(network.deliveries(of: Self.key, from: "alice").isEmpty, "acknowledged as arrived")
        #expect(Self.messages("Alice", of: network["bob"]).isEmpty)
        #expect(network["bob"].snapshot(of: Self.key).notifications.isEmpty)
        #expect(Self.messages("Bob", of: network["alice"]).map(\.state) == [.sent], "sent, never read")

        try network["bob"].send(ChatIntent.unblockContact(contact: "Alice"), to: Self.key)
        try network["alice"].send(ChatIntent.send(text: "Now?", contact: "Bob"), to: Self.key)
        network.deliver()
        #expect(Self.messages("Alice", of: network["bob"]).map(\.message) == ["Now?"])
        #expect(Self.row("Alice", of: network["bob"])?.blocked == false)
    }

    @Test func aRemovedContactGoesWithItsChatAndWhatTheyDeliverIsDropped() throws {
        var network = try Self.pair()
        try network["bob"].send(ChatIntent.openChat(contact: "Alice"), to: Self.key)
        try network["bob"].send(ChatIntent.removeContact(contact: "Alice"), to: Self.key)
        let bob = network["bob"].snapshot(of: Self.key)
        #expect(bob.chatList.chats.map(\.contact) == ["John"])
        #expect(bob.navigation == [.chatList], "its chat screen left the stack")
        try network["alice"].send(ChatIntent.send(text: "Still there?", contact: "Bob"), to: Self.key)
        network.deliver()
        #expect(network["bob"].snapshot(of: Self.key).chatList.chats.map(\.contact) == ["John"])
        #expect(throws: SessionRefusal.self) {
            try network["bob"].send(ChatIntent.removeContact(contact: "John"), to: Self.key)
        }
    }

    @Test func aMessageToAnEndedChatComesBackNotDelivered() throws {
        var network = try Self.pair()
        network.end("bob")
        try network["alice"].send(ChatIntent.openChat(contact: "Bob"), to: Self.key)
        try network["alice"].send(ChatIntent.send(text: "Hello?"), to: Self.key)
        network.deliver()
        #expect(Self.messages("Bob", of: network["alice"]).map(\.state) == [.notDelivered(reason: .ended)])
        let bubble = try #require(network["alice"].snapshot(of: Self.key).conversations["Bob"]?.messages.last)
        #expect(bubble.notDelivered == "Not delivered: this contact's chat has ended.")
        #expect(bubble.readStatus == .unread)
    }

    @Test func aPersonNeverGetsTheBot() throws {
        var network = try Self.pair()
        try network["alice"].send(ChatIntent.openChat(contact: "Bob"), to: Self.key)
        try network["alice"].send(ChatIntent.send(text: "Hi"), to: Self.key)
        network.advance(by: .seconds(120))
        #expect(network["alice"].state(of: Self.key).simulation.conversations["Bob"] == nil)
        #expect(Self.messages("Bob", of: network["alice"]).map(\.message) == ["Hi"])
    }
}
