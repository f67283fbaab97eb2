import ChatAPI
import ViewHostAPI

/// The only place the navigation stack changes: a pure function from a stack and an intent to the next stack
/// (the MVVM+C coordinator of seed 000, standing in for seed 001's static `BaseNavigationViewController`).
///
/// Rules (seed 001 §1, "Navigation"):
/// - `addChat` pushes Create Chat (nothing if Create Chat is already on top).
/// - `created` replaces Create Chat on top with the new chat's screen (`removePreviousFromStack: true`). When
///   Create Chat is no longer on top (the user went back meanwhile), the chat's screen is pushed instead (quirk
///   fixed: the original removed whatever screen was on top); nothing if that chat is already on top.
/// - `openChat` pushes the chat's screen (the stack is kept), nothing if that very screen is on top.
/// - `notificationTap` always pushes the chat's screen, so the same chat can be on the stack twice (quirk kept).
/// - `back` pops one screen, never the chat list.
/// - `close` takes every screen of a chat away (its person was removed); the screens above it stay.
/// - The stack never grows beyond `maxScreens`: such pushes leave it as it is.
enum ChatCoordinator {
    /// The stack after `intent`.
    /// - Parameters:
    ///   - stack: The current stack, bottom first (an empty or rootless stack is treated as starting with the list).
    ///   - intent: What should happen.
    ///   - maxScreens: The deepest stack allowed.
    /// - Returns: The next stack, bottom first; always starting with ``ChatScreen/chatList``.
    static func navigate(_ stack: [ChatScreen], _ intent: NavigationIntent, maxScreens: Int = 32) -> [ChatScreen] {
        var next = stack.first == .chatList ? stack : [.chatList] + stack
        let canPush = next.count < max(1, maxScreens)
        switch intent {
        case .addChat:
            if next.last != .createChat, canPush { next.append(.createChat) }
        case .created(let contact):
            if next.last == .createChat {
                next[next.count - 1] = .chat(contact: contact)
            } else if next.last != .chat(contact: contact), canPush {
                next.append(.chat(contact: contact))
            }
        case .openChat(let contact):
            if next.last != .chat(contact: contact), canPush { next.append(.chat(contact: contact)) }
        case .notificationTap(let contact):
            if canPush { next.append(.chat(contact: contact)) }
        case .back:
            if next.count > 1 { next.removeLast() }
        case .close(let contact):
            next.removeAll { $0 == .chat(contact: contact) }
        }
        return next
    }
}
