/// The chat feature's refusals. Each is view-model state, never an HTTP error: the screen that asked shows
/// ``reason``, exactly as the original shows its texts.
enum ChatError: Error, Equatable, CustomStringConvertible {
    /// Create Chat got an empty (or, quirk fixed, all-whitespace) contact.
    case emptyContact
    /// Create Chat would go over the session's chat limit.
    case tooManyChats(limit: Int)
    /// Send got an empty or whitespace-only text (quirk fixed: the MVVM original sent it).
    case emptyMessage
    /// A chat screen was opened for a contact without a chat.
    case cannotConnect

    /// The text the screen shows; the original's own words where it has them.
    var reason: String {
        switch self {
        case .emptyContact: "Please provide a contact name"
        case .tooManyChats(let limit): "You can't have more than \(limit) chats."
        case .emptyMessage: "Enter a message!"
        case .cannotConnect: "Cannot connect to chat"
        }
    }

    var description: String { reason }
}
