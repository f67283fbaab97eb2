import Foundation
import ViewHostLocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches and decodes one JSON document from a provider, with a timeout and one retry.
///
/// The original's `WeatherbitService` made one `URLSession` call with the default 60 s timeout and gave up on any
/// error. A host that serves many sessions needs an answer in bounded time: each attempt is cut at `timeout`,
/// and a timeout, a transport error, a 5xx or a 429 is retried once after `retryDelay`. A 4xx other than 429 and
/// an unreadable body are not retried (asking again would get the same answer).
struct JSONFetcher: Sendable {
    /// The provider's name in error messages, such as `Open-Meteo`.
    let service: String
    let timeout: Duration
    let retryDelay: Duration
    /// Waits out a duration (an attempt's timeout, the retry delay); returns early when its task is cancelled.
    let sleep: @Sendable (Duration) async -> Void
    private let session: URLSession

    init(
        service: String, timeout: Duration, retryDelay: Duration, sleep: @escaping @Sendable (Duration) async -> Void
    ) {
        self.service = service
        self.timeout = timeout
        self.retryDelay = retryDelay
        self.sleep = sleep
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.backstop(timeout)
        configuration.timeoutIntervalForResource = Self.backstop(timeout)
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// Fetches `url` and decodes its body as `Value`.
    /// - Throws: ``WeatherError`` naming ``service``.
    func fetch<Value: Decodable>(_ type: Value.Type, from url: URL) async throws(WeatherError) -> Value {
        let body = try await fetchWithRetry(url)
        do {
            return try JSONDecoder().decode(Value.self, from: body)
        } catch {
            throw .invalidResponse(service: service)
        }
    }

    private func fetchWithRetry(_ url: URL) async throws(WeatherError) -> Data {
        do {
            return try await fetchOnce(url)
        } catch let error where Self.isRetryable(error) {
            if retryDelay > .zero { await sleep(retryDelay) }
            return try await fetchOnce(url)
        }
    }

    /// One attempt, cut at `timeout` by a timer of its own: FoundationNetworking on Linux truncates URLSession
    /// timeouts to whole seconds (0.3 s fires at once, 1.5 s after 1 s), so its own limit is only a backstop.
    ///
    /// The transfer is a data task with a completion handler, cancelled by the timer's own code, never through
    /// Swift task cancellation: FoundationNetworking's `data(for:)` cancels its transfer with a `sync` on the
    /// session's queue while the runtime holds the task's status lock, and the session's queue, finishing that
    /// very transfer at the same moment, waits for the same lock to resume the task. Both threads then wait for
    /// ever, and with them both threads of the cooperative pool (seen as a whole test run standing still).
    private func fetchOnce(_ url: URL) async throws(WeatherError) -> Data {
        let request = {
            var request = URLRequest(
                url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.backstop(timeout))
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            return request
        }()
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let once = ResumeOnce(continuation)
            let transfer = session.dataTask(with: request) { body, response, error in
                if let error = error as? URLError, error.code == .timedOut {
                    once.resume(.timedOut)
                } else if error != nil {
                    once.resume(.failed)
                } else {
                    once.resume(.response(body ?? Data(), status: (response as? HTTPURLResponse)?.statusCode))
                }
            }
            transfer.resume()
            once.arm(
                Task { [timeout, sleep] in
                    await sleep(timeout)
                    if once.resume(.timedOut) { transfer.cancel() }
                })
        }
        switch outcome {
        case .timedOut:
            throw .timedOut(service: service)
        case .failed:
            throw .unreachable(service: service)
        case .response(let body, let status):
            guard let status else { throw .invalidResponse(service: service) }
            guard status == 200 else { throw .badStatus(service: service, status: status) }
            return body
        }
    }

    /// How one attempt ended.
    private enum Outcome: Sendable {
        case response(Data, status: Int?)
        case timedOut
        case failed
    }

    /// Resumes a continuation with the first outcome only (the transfer and the timer race), and stops the timer
    /// once the transfer has answered, so no sleeping task outlives a fast request.
    private final class ResumeOnce: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Outcome, Never>?
            var timer: Task<Void, Never>?
        }

        private let state: Locked<State>

        init(_ continuation: CheckedContinuation<Outcome, Never>) {
            state = Locked(State(continuation: continuation))
        }

        /// Hands over the timer, cancelled at once if the transfer already answered.
        func arm(_ timer: Task<Void, Never>) {
            let answered = state.withLock { state -> Bool in
                if state.continuation == nil { return true }
                state.timer = timer
                return false
            }
            if answered { timer.cancel() }
        }

        /// Resumes with `outcome` unless already resumed; returns whether this call did.
        @discardableResult
        func resume(_ outcome: Outcome) -> Bool {
            let taken = state.withLock { state -> (CheckedContinuation<Outcome, Never>, Task<Void, Never>?)? in
                guard let continuation = state.continuation.take() else { return nil }
                defer { state.timer = nil }
                return (continuation, state.timer)
            }
            guard let (continuation, timer) = taken else { return false }
            timer?.cancel()
            continuation.resume(returning: outcome)
            return true
        }
    }

    /// URLSession's own limit: whole seconds above `timeout`, so it never fires before our timer.
    private static func backstop(_ timeout: Duration) -> TimeInterval {
        timeout.seconds.rounded(.up) + 1
    }

    private static func isRetryable(_ error: WeatherError) -> Bool {
        switch error {
        case .timedOut, .unreachable: true
        case .badStatus(_, let status): status >= 500 || status == 429
        case .invalidResponse: false
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    var seconds: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
