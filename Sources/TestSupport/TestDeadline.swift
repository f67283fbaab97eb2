import Foundation

/// When a test's wait for another thread, socket or process gives up. Every such wait is a bound so a broken test
/// fails instead of hanging, never a measurement; under a sanitizer the same code runs several times slower, so
/// `scripts/sanitize.sh` sets `VIEWHOST_TEST_TIMEOUT_SCALE` (e.g. 10) and every bound stretches by it.
public enum TestDeadline {
    /// The factor every bound is multiplied by: `VIEWHOST_TEST_TIMEOUT_SCALE` when it is a number of at least 1,
    /// else 1.
    public static let scale: Int = {
        guard let text = ProcessInfo.processInfo.environment["VIEWHOST_TEST_TIMEOUT_SCALE"], let value = Int(text),
            value >= 1
        else { return 1 }
        return value
    }()

    /// `timeout` stretched by ``scale``.
    public static func scaled(_ timeout: Duration) -> Duration { timeout * scale }

    /// A test's time limit, in minutes: `minutes` stretched by ``scale``, as `.timeLimit(.minutes(TestDeadline
    /// .minutes(5)))`. A time limit is a bound for a hang like every other wait here: in the whole suite under
    /// ThreadSanitizer, on two busy cores, a test that takes 5 s alone took three minutes, and failed a bound
    /// meant for a test that never ends.
    public static func minutes(_ minutes: Int) -> Int { minutes * scale }

    /// The instant `timeout` (stretched by ``scale``) from now.
    public static func after(_ timeout: Duration) -> ContinuousClock.Instant {
        ContinuousClock.now.advanced(by: scaled(timeout))
    }
}
