import Foundation

/// An applied input not yet encoded as its journal records it (``SessionInput``): encoding events costs more than
/// applying them, so an input is made outside the session's lock, when a journal takes it, or only when it is read,
/// when a history kept in memory holds it. A fired timer is its number and instant; anything else is a function
/// that makes it (holding the feature's events as values). Two words and a tag either way (17 bytes): a timer, the
/// most frequent input of a chat left alone, costs no allocation of its own.
enum UnmadeInput: Sendable {
    /// Pending timer `id` fired at `at`.
    case timer(id: Int, at: Date)
    /// Made by the function when asked.
    case maker(@Sendable () -> SessionInput)

    /// The input as its journal records it.
    func make() -> SessionInput {
        switch self {
        case .timer(let id, let at): .timer(id: id, at: at)
        case .maker(let make): make()
        }
    }
}
