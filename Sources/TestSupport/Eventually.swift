/// Polls `condition` until it holds or `timeout` passes; returns whether it held. For things that happen on another
/// thread or process with no event to wait on (connection counts, a signal's effect), bounded so a test fails
/// instead of hanging.
/// - Parameters:
///   - timeout: How long to keep asking.
///   - interval: The pause between two asks.
///   - condition: What should become true.
/// - Returns: Whether `condition` held before `timeout` passed.
public func eventually(
    timeout: Duration = .seconds(60), interval: Duration = .milliseconds(10), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = TestDeadline.after(timeout)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
