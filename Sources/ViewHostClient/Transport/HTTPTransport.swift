import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's one door to the network: builds requests against the base URL with the bearer token, runs them
/// on its own `URLSession` (no cookies, no URL cache: the client keeps its own ETag cache), and turns every
/// failure into a ``ViewHostError``.
struct HTTPTransport: Sendable {
    let baseURL: URL
    let configuration: ViewHostClient.Configuration
    let session: URLSession

    init(baseURL: URL, configuration: ViewHostClient.Configuration) {
        self.baseURL = baseURL
        self.configuration = configuration
        session = URLSession(configuration: Self.sessionConfiguration(configuration))
    }

    /// What every session of a client shares: no cookie jar (the token goes in `Authorization`), no URL cache.
    static func sessionConfiguration(_ configuration: ViewHostClient.Configuration) -> URLSessionConfiguration {
        let settings = URLSessionConfiguration.ephemeral
        settings.httpShouldSetCookies = false
        settings.httpCookieAcceptPolicy = .never
        settings.urlCache = nil
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.timeoutIntervalForRequest = configuration.idleTimeout.seconds
        return settings
    }

    /// `path` (absolute, such as `/v1/sessions`, or an action's `href`) against the base URL.
    func url(_ path: String, query: [URLQueryItem] = []) throws(ViewHostError) -> URL {
        guard var components = URLComponents(string: path) else {
            throw ViewHostError(kind: .invalidRequest, title: "invalid request", detail: "'\(path)' is not a URL path")
        }
        if !query.isEmpty { components.queryItems = (components.queryItems ?? []) + query }
        guard let url = components.url(relativeTo: baseURL)?.absoluteURL else {
            throw ViewHostError(kind: .invalidRequest, title: "invalid request", detail: "'\(path)' is not a URL path")
        }
        return url
    }

    /// A request with the token, if any, and JSON accepted.
    func request(_ method: String, _ url: URL, token: String?, body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Runs `request`; any answer with a status comes back, whatever the status.
    func data(for request: URLRequest) async throws(ViewHostError) -> (Data, HTTPURLResponse) {
        if Task.isCancelled { throw .cancelled }
        let answer: (Data, URLResponse)
        do {
            answer = try await session.data(for: request)
        } catch {
            throw .transport(error)
        }
        guard let response = answer.1 as? HTTPURLResponse else {
            throw .invalidResponse("the answer is not HTTP")
        }
        return (answer.0, response)
    }

    /// Runs `request` and fails with the problem unless the status is `expected`.
    func expecting(_ expected: Set<Int>, _ request: URLRequest) async throws(ViewHostError) -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard expected.contains(response.statusCode) else {
            throw .problem(status: response.statusCode, body: data, headers: response)
        }
        return (data, response)
    }

    /// Decodes a JSON answer.
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data, status: Int) throws(ViewHostError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .invalidResponse("the \(status) answer does not decode as \(Value.self): \(error)", status: status)
        }
    }

    /// Waits `duration` with the configured sleep; cancellation ends the wait with ``ViewHostError/cancelled``.
    func sleep(_ duration: Duration) async throws(ViewHostError) {
        do {
            try await configuration.sleep(duration)
        } catch {
            throw .cancelled
        }
    }
}

extension Duration {
    /// The duration in seconds, as `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
