/// Thrown by ``SessionRegistry/authenticate(_:id:)`` when the session is in the durable store but not in memory:
/// loading it waits for the store (a network round trip with PostgreSQL), which an event loop must never do.
/// ``MeteredRouter`` catches it, runs ``load`` on a task (the store's call itself on a storage thread) and then
/// runs the handler again, which finds the session in memory.
struct SessionLoadNeeded: Error {
    /// Loads the session into memory; throws the ``AppError`` the request is answered with when it cannot.
    let load: @Sendable () async throws -> Void
}
