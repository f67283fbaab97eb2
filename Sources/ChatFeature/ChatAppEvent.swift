import ChatAPI
import ViewHostAPI

/// Everything the chat feature of one session reacts to: client intents (posted as JSON, see ``ChatIntent``) and
/// the internal events it schedules or routes for itself, which clients never post.
public enum ChatAppEvent: Sendable, Equatable, Codable {
    /// A client's intent: the original's closures and app-delegate calls.
    case intent(ChatIntent)
    /// A chat-list event the feature routes or schedules itself.
    case chat(ChatEvent)
    /// A message event the feature routes or schedules itself.
    case message(MessageEvent)
    /// A step of the simulated other side.
    case simulator(SimulatorEvent)
    /// Between the user and a person (a contact made through an invitation): the contact made, a delivery from
    /// them, a delivery that did not arrive.
    case person(PersonEvent)
}
