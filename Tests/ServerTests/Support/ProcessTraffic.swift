import Foundation
import TestSupport
import ViewHostLocking

/// Requests sent one after another, each on a new connection, while a test changes the server under them (a
/// take-over): what each got, a status or the error (a refused or reset connection).
final class ProcessTraffic: Sendable {
    private let outcomes = Locked<[String]>([])
    private let stopped = Locked(false)
    private let task: Task<Void, Never>

    /// Starts sending `GET path` to `port` (with `token` when given) until ``stop()``.
    init(port: Int, path: String = "/healthz", token: String? = nil) {
        let outcomes = outcomes
        let stopped = stopped
        task = Task {
            while !stopped.withLock({ $0 }) {
                do {
                    let response = try await ProcessHTTP.request(
                        port, "GET", path, token: token, timeout: .seconds(60))
                    outcomes.withLock { $0.append("\(response.status)") }
                } catch {
                    outcomes.withLock { $0.append("error: \(error)") }
                }
            }
        }
    }

    /// How many requests got an outcome so far.
    var count: Int { outcomes.withLock { $0.count } }

    /// Waits until `more` further requests got an outcome.
    func flows(_ more: Int = 5) async -> Bool {
        let now = count
        return await eventually { count >= now + more }
    }

    /// Stops sending and returns every outcome that was not a 200.
    func stop() async -> [String] {
        stopped.withLock { $0 = true }
        await task.value
        return outcomes.withLock { $0 }.filter { $0 != "200" }
    }
}
