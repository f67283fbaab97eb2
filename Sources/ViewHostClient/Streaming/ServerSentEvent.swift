/// One event of a `text/event-stream` (the HTML standard's server-sent events), as dispatched at a blank line.
struct ServerSentEvent: Equatable, Sendable {
    /// `event:` (nil: the default `message`).
    var event: String?
    /// `data:` lines joined with newlines.
    var data: String
    /// The last `id:` seen so far in the stream, if any (the standard's "last event ID buffer").
    var id: String?
}
