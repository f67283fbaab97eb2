/// ViewModelCore is the MVVM plumbing between features and the app: features as pure state machines, the session
/// as a value (every feature's state, versions, the session-wide sequence, the data-flow log, pending timers and
/// idempotency keys) with one `apply` that returns what changed and the effects to run, and the thin shell that
/// feeds it events and runs those effects. It knows no HTTP and no particular feature: features depend on it, and
/// the ViewHost library maps it onto routes. Nothing here sees a socket or a `DispatchQueue`.
///
/// ```
/// client event ─▶ Session (shell, a mutex) ─▶ SessionCore.apply ─▶ Feature.apply(event, &state, &context)
///                     ▲                              │
///        timers fire, providers answer ◀─ effects ◀──┘ (start/cancel timer, request) + changes ─▶ SnapshotStream
/// ```
enum ViewModelCoreModule {}
