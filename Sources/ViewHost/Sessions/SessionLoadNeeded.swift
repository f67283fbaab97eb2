import ViewModelCore

/// Thrown by ``SessionRegistry/authenticate(_:id:)`` when the session is in the durable store but not in memory
/// (or the copy a request held was dropped): loading it waits for the store (a network round trip with
/// PostgreSQL), which an event loop must never do. ``MeteredRouter`` catches it, runs ``load`` on a task (the
/// store's call itself on a storage thread) and then runs the handler again with the loaded copy as ``loaded``,
/// which ``SessionRegistry/authenticate(_:id:)`` answers with.
struct SessionLoadNeeded: Error {
    /// Loads the session into memory and returns that copy; throws the ``AppError`` the request is answered with
    /// when it cannot.
    let load: @Sendable () async throws -> Session

    /// The copy the request loaded, while its handler runs again: the request is answered from it even when the
    /// app has dropped it meanwhile (another request's write failed), rather than loading once more.
    @TaskLocal static var loaded: Session?
}
