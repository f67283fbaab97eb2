import Foundation
import TestSupport
import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

struct MessageEventRouterTests {
    @Test func openingJohnReadsHisMessageAtOnce() {
        let chat = ChatHarness().loaded()
        #expect(chat.snapshot.badge == 1)
        chat.send(.openChat(contact: "John"))
        #expect(chat.recorder.snapshots.count == 1)  // the first load and the read it causes are one step
        let john = chat.conversation()
        #expect(chat.snapshot.badge == 0)
        #expect(chat.snapshot.chatList.chats.first?.unreadMessageCount == 0)
        #expect(
            john?.messages == [
                MessageViewModel(
                    id: "m1", sentBy: .other, message: "Hi, you're here too?", sendStatus: "23-11-2026 13:51",
                    readStatus: .unread)
            ])
        #expect(
            john?.tableViewDifferences
                == TableViewDataDifferences(
                    rowsToDelete: [], rowsToUpdate: [0], rowsToInsert: [], finalRowCount: 1))
        let steps = chat.log.suffix(3)
        #expect(steps.map(\.event) == ["openChat", "userRead", "userRead"])
        #expect(steps.map(\.source) == [.client, .view, .view])
    }

    @Test func firstLoadWithNothingUnreadAnimatesEveryRowAsAnInsert() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .back, .openChat(contact: "John"))
        let john = chat.conversation()
        #expect(john?.shouldAnimateChanges == true)
        #expect(john?.tableViewDifferences.rowsToInsert == [0])
    }

    @Test func sendShowsSendingThenTheSendDateAfterOneAndAHalfSeconds() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"))
        _ = chat.recorder.drain()
        chat.send(.send(text: "Hey John", contact: nil))
        chat.advance(seconds: 1.499)
        chat.advance(seconds: 0.001)
        let snapshots = chat.recorder.drain()
        #expect(snapshots.count == 2)
        let sending = snapshots[0].conversations["John"]
        #expect(
            sending?.messages.last
                == MessageViewModel(
                    id: "m2", sentBy: .user, message: "Hey John", sendStatus: "Sending...", readStatus: .unread))
        #expect(sending?.shouldBeBusy == true && sending?.shouldWipeMessage == true)
        #expect(sending?.actions.send.enabled == true)  // the return key still sends (quirk kept)
        #expect(
            sending?.tableViewDifferences
                == TableViewDataDifferences(
                    rowsToDelete: [], rowsToUpdate: [0], rowsToInsert: [1], finalRowCount: 2))
        #expect(snapshots[0].chatList.chats.first?.message == "Hi, you're here too?")  // not refreshed while open
        let sent = snapshots[1].conversations["John"]
        #expect(sent?.messages.last?.sendStatus == "23-11-2026 14:00")
        #expect(sent?.shouldBeBusy == false)
        #expect(sent?.tableViewDifferences.rowsToUpdate == [0, 1])
        #expect(snapshots[1].chatList.chats.first?.message == "Hey John")
    }

    @Test func sendWhileBusyIsStillAcceptedQuirkKept() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: "one", contact: nil), .send(text: "two", contact: nil))
        #expect(chat.conversation()?.messages.map(\.message) == ["Hi, you're here too?", "one", "two"])
    }

    @Test func emptyMessageFailsWithEnterAMessageQuirkFixed() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: " \n ", contact: nil))
        let john = chat.conversation()
        #expect(john?.shouldShowError == true)
        #expect(john?.error == "Enter a message!")
        #expect(john?.messages.count == 1)
        #expect(chat.log.contains { $0.event == "failedSending" })
        chat.send(.send(text: "ok", contact: nil))
        #expect(chat.conversation()?.shouldShowError == false)
    }

    /// The original put a message to a missing chat into a throw-away chat, so it was lost; here it is refused
    /// (quirk fixed), so nothing is acknowledged and then dropped.
    @Test func messageToAContactWithoutAChatIsRefused() {
        let chat = ChatHarness().loaded()
        let before = chat.state
        #expect(chat.refusal(.send(text: "Yo", contact: "Ann"))?.reason == "There is no chat with 'Ann'; create it first.")
        #expect(chat.state == before)
        #expect(chat.log.last?.event == "loaded")
    }

    /// The walk: a send right after `create`, before the chat exists and while no chat is open, is refused
    /// with the intents accepted now, instead of being acknowledged and lost.
    @Test func sendWithoutContactAndNoChatOnTopIsRefused() throws {
        let chat = ChatHarness().loaded()
        chat.send(.addChat)
        chat.send(.create(contact: "Ann"))
        let version = chat.version
        let refusal = try #require(chat.refusal(.send(text: "hello", contact: nil)))
        #expect(refusal.reason == "No chat is open: open one (openChat) or name its contact.")
        #expect(refusal.allowed.contains("openChat") && !refusal.allowed.contains("create"))
        #expect(chat.version == version)
        #expect(chat.log.last?.event == "creatingChat")
        chat.advance(seconds: 0.5)
        #expect(chat.send(.send(text: "hello", contact: nil)) != nil)
        #expect(chat.conversation("Ann")?.messages.map(\.message) == ["hello"])
    }

    @Test func messageIDsCountUpPerSession() {
        let first = ChatHarness().loaded()
        first.send(.openChat(contact: "John"), .send(text: "a", contact: nil), .send(text: "b", contact: nil))
        #expect(first.conversation()?.messages.map(\.id) == ["m1", "m2", "m3"])
        let second = ChatHarness().loaded()
        second.send(.openChat(contact: "John"), .send(text: "a", contact: nil))
        #expect(second.conversation()?.messages.map(\.id) == ["m1", "m2"])
    }

    @Test func historyCapDropsTheOldestMessagesAndDeletesTheirRows() {
        let chat = ChatHarness(configuration: ChatConfiguration(maxMessagesPerChat: 3)).loaded()
        chat.send(.openChat(contact: "John"), .send(text: "a", contact: nil), .send(text: "b", contact: nil))
        chat.send(.send(text: "c", contact: nil))
        let john = chat.conversation()
        #expect(john?.messages.map(\.id) == ["m2", "m3", "m4"])
        #expect(
            john?.tableViewDifferences
                == TableViewDataDifferences(
                    rowsToDelete: [0], rowsToUpdate: [1, 2], rowsToInsert: [3], finalRowCount: 3))
    }

    @Test func badgeCountsOnlyTheOtherPersonsUnreadMessages() {
        let chat = ChatHarness().loaded()
        chat.send(.send(text: "mine", contact: "John"))
        #expect(chat.snapshot.badge == 1)
        #expect(chat.snapshot.chatList.chats.first?.unreadMessageCount == 1)
        chat.send(.userRead(contact: "John"))
        #expect(chat.snapshot.badge == 0)
    }

    @Test func clientUserReadWithNothingUnreadChangesNothing() {
        let chat = ChatHarness().loaded()
        chat.send(.userRead(contact: "John"))
        let version = chat.version
        chat.send(.userRead(contact: "John"), .userRead(contact: nil))
        #expect(chat.version == version)
    }

    @Test func coveredChatScreenKeepsItsLastViewModelUntilItIsOnTopAgain() throws {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"))
        let shown = try #require(chat.conversation())
        chat.send(.addChat, .send(text: "while covered", contact: "John"))
        #expect(chat.conversation() == shown)
        chat.send(.back)
        let again = chat.conversation()
        #expect(again?.messages.map(\.message) == ["Hi, you're here too?", "while covered"])
        #expect(again?.shouldAnimateChanges == true)
        #expect(again?.tableViewDifferences.rowsToInsert == [0, 1])
    }

    @Test func duplicateScreensOfOneContactShowTheTopmostOnesViewModel() {
        let chat = ChatHarness().loaded()
        chat.send(.create(contact: "Ann"))
        chat.advance(seconds: 0.5)
        chat.send(.openChat(contact: "John"), .openChat(contact: "Ann"), .openChat(contact: "John"))
        #expect(chat.snapshot.navigation.count == 5)
        #expect(chat.snapshot.conversations.keys.sorted() == ["Ann", "John"])
        #expect(chat.conversation()?.shouldAnimateChanges == true)
    }
}
