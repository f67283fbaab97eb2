import Foundation
import TestSupport
import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

struct ChatEventRouterTests {
    @Test func startShowsLoadingListAtOnceThenJohnAfterHalfASecond() {
        let chat = ChatHarness(appear: false)
        chat.sendEvents([.intent(.appear)], source: .view)
        chat.advance(seconds: 0.499)
        chat.advance(seconds: 0.001)
        let snapshots = chat.recorder.snapshots
        #expect(chat.recorder.versions == [2, 3])
        #expect(snapshots[0].chatList == ChatListViewModelBuilder.buildLoading())
        #expect(snapshots[0].navigation == [.chatList])
        #expect(snapshots[0].badge == 0)
        #expect(snapshots[0].createChat == nil)
        #expect(snapshots[0].conversations.isEmpty)
        #expect(snapshots[0].actions.back.enabled == false)
        let john = snapshots[1].chatList.chats
        #expect(snapshots[1].chatList.hideEmptyMessage && !snapshots[1].chatList.showSpinner)
        #expect(john.map(\.contact) == ["John"])
        #expect(john.first?.message == "Hi, you're here too?")
        #expect(john.first?.lastMessageDate == "23-11-2026 13:51")  // 500 s before the answer at 14:00:00.5
        #expect(john.first?.unreadMessageCount == 1)
        #expect(snapshots[1].badge == 1)
        let log = chat.log
        #expect(log.map(\.event) == ["appear", "applicationInitialized", "loaded"])
        #expect(log.map(\.source) == [.view, .view, .timer])
        #expect(log.map(\.causedBy) == [nil, 1, 2])
    }

    @Test func appearingAgainDoesNothing() {
        let chat = ChatHarness().loaded()
        let version = chat.version
        chat.sendEvents([.intent(.appear)], source: .view)
        chat.advance(seconds: 5)
        #expect(chat.version == version)
        #expect(!chat.log.contains { $0.event == "applicationInitialized" && $0.seq > 3 })
    }

    @Test func addChatPushesCreateChatWithItsIdleViewModel() {
        let chat = ChatHarness().loaded()
        chat.send(.addChat)
        #expect(chat.snapshot.navigation == [.chatList, .createChat])
        #expect(chat.snapshot.createChat == CreateChatViewModelBuilder.build(isSending: false, error: nil))
        #expect(chat.snapshot.actions.back.enabled == true)
        chat.send(.addChat)
        #expect(chat.snapshot.navigation == [.chatList, .createChat])
    }

    @Test func createShowsSpinnerThenCreatedReplacesCreateChatWithTheNewChat() {
        let chat = ChatHarness().loaded()
        chat.send(.addChat)
        chat.send(.create(contact: "Ann"))
        chat.advance(seconds: 0.5)
        let snapshots = chat.recorder.snapshots
        #expect(snapshots.count == 3)
        #expect(snapshots[1].createChat == CreateChatViewModelBuilder.build(isSending: true, error: nil))
        #expect(snapshots[1].chatList.chats.map(\.contact) == ["John"])  // the list waits for `created`
        #expect(snapshots[2].navigation == [.chatList, .chat(contact: "Ann")])
        #expect(snapshots[2].createChat == nil)
        #expect(snapshots[2].chatList.chats.map(\.contact) == ["John", "Ann"])
        let ann = snapshots[2].conversations["Ann"]
        #expect(ann?.shouldShowEmpty == true)
        #expect(ann?.shouldAnimateChanges == true)
        #expect(chat.log.map(\.event).suffix(5) == ["addChat", "create", "creatingChat", "created", "userRead"])
    }

    /// The original's create closure did nothing while a create was on its way; the action is disabled then, so
    /// the server refuses it instead of acknowledging and ignoring it.
    @Test func createWhileACreateIsOnItsWayIsRefused() {
        let chat = ChatHarness().loaded()
        chat.send(.create(contact: "Ann"))
        #expect(chat.snapshot.createChat?.actions.create.enabled == false)
        let version = chat.version
        #expect(
            chat.refusal(.create(contact: "Bob"))?.reason
                == "A chat is being created: wait until it is there before creating another.")
        #expect(chat.version == version)
        chat.advance(seconds: 1)
        #expect(chat.snapshot.chatList.chats.map(\.contact) == ["John", "Ann"])
    }

    @Test func createWithoutCreateChatOnTheStackPushesItFirst() {
        let chat = ChatHarness().loaded()
        chat.send(.create(contact: "Ann"))
        #expect(chat.snapshot.navigation == [.chatList, .createChat])
        #expect(chat.snapshot.createChat?.showSpinner == true)
        chat.advance(seconds: 0.5)
        #expect(chat.snapshot.navigation == [.chatList, .chat(contact: "Ann")])
    }

    @Test func emptyContactShowsTheErrorTextQuirkFixed() {
        let chat = ChatHarness().loaded()
        chat.send(.addChat, .create(contact: ""))
        #expect(
            chat.snapshot.createChat
                == CreateChatViewModelBuilder.build(
                    isSending: false, error: "Please provide a contact name"))
        #expect(chat.snapshot.createChat?.hideError == false)
        #expect(chat.log.last?.event == "createChatFailed")
    }

    @Test func allWhitespaceContactIsEmptyQuirkFixed() {
        let chat = ChatHarness().loaded()
        chat.send(.create(contact: " \n\t "))
        #expect(chat.snapshot.createChat?.error == "Please provide a contact name")
        chat.advance(seconds: 1)
        #expect(chat.snapshot.chatList.chats.count == 1)
    }

    @Test func contactIsTrimmedAndCutToSixtyFourCharactersQuirkFixed() {
        let chat = ChatHarness().loaded()
        chat.send(.create(contact: "  Ann \n"))
        chat.advance(seconds: 0.5)
        #expect(chat.snapshot.navigation.last == .chat(contact: "Ann"))
        chat.send(.create(contact: String(repeating: "x", count: 100)))
        chat.advance(seconds: 0.5)
        #expect(chat.snapshot.chatList.chats.last?.contact == String(repeating: "x", count: 64))
    }

    @Test func existingContactOpensThatChatInsteadOfADuplicateQuirkFixed() {
        let chat = ChatHarness().loaded()
        chat.send(.addChat, .create(contact: "John"))
        #expect(chat.snapshot.navigation == [.chatList, .chat(contact: "John")])
        #expect(chat.snapshot.createChat == nil)
        chat.advance(seconds: 1)
        #expect(chat.snapshot.chatList.chats.map(\.contact) == ["John"])
        #expect(chat.log.map(\.event).contains("created"))
        #expect(!chat.log.map(\.event).contains("creatingChat"))
    }

    @Test func reachingMaxChatsFailsWithASentenceQuirkFixed() {
        let chat = ChatHarness(configuration: ChatConfiguration(maxChats: 2)).loaded()
        chat.send(.create(contact: "Ann"))
        chat.advance(seconds: 0.5)
        chat.send(.create(contact: "Bob"))
        #expect(chat.snapshot.createChat?.error == "You can't have more than 2 chats.")
        #expect(chat.snapshot.createChat?.enableCreate == true)
        chat.advance(seconds: 1)
        #expect(chat.snapshot.chatList.chats.map(\.contact) == ["John", "Ann"])
    }

    @Test func backPopsButNeverBelowTheList() {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .addChat)
        #expect(chat.snapshot.navigation == [.chatList, .chat(contact: "John"), .createChat])
        chat.send(.back)
        #expect(chat.snapshot.navigation == [.chatList, .chat(contact: "John")])
        chat.send(.back)
        #expect(chat.snapshot.navigation == [.chatList])
        #expect(chat.snapshot.actions.back.enabled == false)
        let version = chat.version
        chat.send(.back)
        #expect(chat.version == version)
    }

    /// The original pushed a screen that could not connect ("Cannot connect to chat"); a contact without a chat
    /// is refused instead, and the stack stays as it was.
    @Test func openingAContactWithoutAChatIsRefused() {
        let chat = ChatHarness().loaded()
        let refusal = chat.refusal(.openChat(contact: "Zed"))
        #expect(refusal?.reason == "There is no chat with 'Zed'; create it first.")
        #expect(refusal?.allowed.contains("openChat") == true)
        #expect(chat.snapshot.navigation == [.chatList])
        #expect(chat.log.last?.event == "loaded")
    }

    @Test func chatCreatedBeforeTheFetchAnswersIsKeptQuirkFixed() {
        let chat = ChatHarness()
        chat.send(.create(contact: "Ann"))
        chat.advance(seconds: 0.5)
        #expect(chat.snapshot.chatList.chats.map(\.contact) == ["John", "Ann"])
        #expect(chat.snapshot.conversations["Ann"]?.shouldShowError == false)
    }

    @Test func createdAfterGoingBackPushesTheChatOverTheList() {
        let chat = ChatHarness().loaded()
        chat.send(.create(contact: "Ann"), .back)
        chat.advance(seconds: 0.5)
        #expect(chat.snapshot.navigation == [.chatList, .chat(contact: "Ann")])
    }

    @Test func datesAreRenderedInTheSessionsTimeZone() throws {
        let chat = ChatHarness(timeZone: try #require(TimeZone(identifier: "Europe/Tallinn"))).loaded()
        #expect(chat.snapshot.chatList.chats.first?.lastMessageDate == "23-11-2026 15:51")
    }

    @Test func openingAnEmptyContactIsRefused() {
        let chat = ChatHarness().loaded()
        let version = chat.version
        #expect(chat.refusal(.openChat(contact: "  "))?.reason == "The contact is empty: name the contact of an existing chat.")
        #expect(chat.refusal(.notificationTap(contact: "")) != nil)
        #expect(chat.version == version)
    }

    @Test func backOnTheChatListIsRefused() {
        let chat = ChatHarness().loaded()
        #expect(chat.snapshot.actions.back.enabled == false)
        #expect(chat.refusal(.back)?.allowed.contains("back") == false)
    }

    @Test func aFullNavigationStackRefusesAnotherScreen() {
        let chat = ChatHarness(configuration: ChatConfiguration(maxScreens: 2)).loaded()
        chat.send(.openChat(contact: "John"))
        #expect(chat.refusal(.addChat)?.reason == "The navigation stack holds 2 screens, the most it may: go back first.")
        #expect(chat.send(.openChat(contact: "John")) != nil)  // on top already: nothing to push
    }
}
