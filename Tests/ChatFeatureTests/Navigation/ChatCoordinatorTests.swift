import Testing
import ChatAPI
import ViewHostAPI

@testable import ChatFeature

struct ChatCoordinatorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let stack: [ChatScreen]
        let intent: NavigationIntent
        let expected: [ChatScreen]
        var testDescription: String { name }
    }

    private static let list = ChatScreen.chatList
    private static let create = ChatScreen.createChat
    private static func chat(_ contact: String) -> ChatScreen { .chat(contact: contact) }

    @Test(arguments: [
        Case(name: "addChat pushes Create Chat", stack: [list], intent: .addChat, expected: [list, create]),
        Case(
            name: "addChat twice keeps one on top", stack: [list, create], intent: .addChat, expected: [list, create]),
        Case(
            name: "created replaces Create Chat", stack: [list, create], intent: .created(contact: "Ann"),
            expected: [list, chat("Ann")]),
        Case(
            name: "created after going back pushes (quirk fixed)", stack: [list, chat("John")],
            intent: .created(contact: "Ann"), expected: [list, chat("John"), chat("Ann")]),
        Case(
            name: "created for the chat on top keeps it", stack: [list, chat("Ann")], intent: .created(contact: "Ann"),
            expected: [list, chat("Ann")]),
        Case(
            name: "openChat pushes and keeps the stack", stack: [list], intent: .openChat(contact: "John"),
            expected: [list, chat("John")]),
        Case(
            name: "openChat of the chat on top keeps it", stack: [list, chat("John")],
            intent: .openChat(contact: "John"), expected: [list, chat("John")]),
        Case(
            name: "notificationTap duplicates (quirk kept)", stack: [list, chat("John")],
            intent: .notificationTap(contact: "John"), expected: [list, chat("John"), chat("John")]),
        Case(name: "back pops", stack: [list, create], intent: .back, expected: [list]),
        Case(name: "back never pops the list", stack: [list], intent: .back, expected: [list]),
        Case(name: "a rootless stack gets the list", stack: [], intent: .addChat, expected: [list, create]),
    ])
    func navigate(_ example: Case) {
        #expect(ChatCoordinator.navigate(example.stack, example.intent) == example.expected)
    }

    @Test func pushesStopAtMaxScreensButReplacingStillWorks() {
        let full: [ChatScreen] = [.chatList, .chat(contact: "A"), .createChat]
        #expect(ChatCoordinator.navigate(full, .openChat(contact: "B"), maxScreens: 3) == full)
        #expect(ChatCoordinator.navigate(full, .notificationTap(contact: "B"), maxScreens: 3) == full)
        #expect(
            ChatCoordinator.navigate(full, .created(contact: "B"), maxScreens: 3)
                == [.chatList, .chat(contact: "A"), .chat(contact: "B")])
    }
}
