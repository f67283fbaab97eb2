import Synchronization
import ViewHostJSON

/// The defaults a configuration load fell back to, by key path, as JSON: what the code applies when nothing sets a
/// key. Each server key's documented default (``ConfigurationKey/defaultJSON``, written in the key table for the
/// docs and `Config/viewhost.json`) is checked against it by a test, so the two writings of one default cannot
/// drift apart.
final class DefaultsRead: Sendable {
    private let values = Mutex<[String: JSONValue]>([:])

    /// Notes that `path` took `value`, its default.
    func record(_ path: String, _ value: JSONValue) {
        values.withLock { $0[path] = value }
    }

    /// Every default taken, by key path.
    var all: [String: JSONValue] { values.withLock { $0 } }
}
