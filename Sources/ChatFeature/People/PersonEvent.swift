import Foundation
import ViewModelCore

/// What happens between the user's chat and a person's (not a bot): the events a contact made, a delivery between
/// the two sessions, or a delivery that did not arrive become. Clients never post these; the library applies them
/// (source `session`).
public enum PersonEvent: Sendable, Equatable, Codable {
    /// A contact was made (``ChatApp/introduced(to:)``): the name the person gave and where to reach them.
    case introduced(name: String, address: ContactAddress)
    /// A message the person sent (delivered from their session): its text, when they sent it, and its id in their
    /// session (what a read receipt names).
    case message(text: String, sendDate: Date, id: MessageID)
    /// The person read the user's messages up to and including the one with `upTo` (an id of this session).
    case read(upTo: MessageID)
    /// The user's message `id` to the contact at `address` did not arrive, and why.
    case undelivered(id: MessageID, to: ContactAddress, reason: DeliveryFailure)
}
