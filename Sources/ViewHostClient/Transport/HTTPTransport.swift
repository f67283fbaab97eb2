import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's one door to the network: builds requests against the base URL with the bearer token, runs them
/// on its own `URLSession` (no cookies, no URL cache: the client keeps its own ETag cache), bounds the size of
/// answers, and turns every failure into a ``ViewHostError`` that says what went wrong in words.
struct HTTPTransport: Sendable {
    let baseURL: URL
    let configuration: ViewHostClient.Configuration
    let session: URLSession
    private let collector: AnswerCollector

    init(baseURL: URL, configuration: ViewHostClient.Configuration) {
        self.baseURL = baseURL
        self.configuration = configuration
        collector = AnswerCollector(limit: configuration.maxAnswerBytes)
        session = URLSession(
            configuration: Self.sessionConfiguration(configuration), delegate: collector, delegateQueue: nil)
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

    /// `path` (absolute, such as `/v1/sessions`, or an action's `href`) under the base URL, whose own path is kept
    /// as a prefix: with `http://host/viewhost/` (a proxy on a sub-path) `/v1/sessions` is
    /// `http://host/viewhost/v1/sessions`. A path that is a whole URL or not absolute is refused, never followed.
    func url(_ path: String, query: [URLQueryItem] = []) throws(ViewHostError) -> URL {
        guard let components = URLComponents(string: path), components.scheme == nil, components.host == nil,
            components.percentEncodedPath.hasPrefix("/"),
            var base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
        else {
            throw ViewHostError(kind: .invalidRequest, title: "invalid request", detail: "'\(path)' is not a URL path")
        }
        var prefix = base.percentEncodedPath
        if prefix.hasSuffix("/") { prefix.removeLast() }
        base.percentEncodedPath = prefix + components.percentEncodedPath
        let items = (components.queryItems ?? []) + query
        base.queryItems = items.isEmpty ? nil : items
        base.fragment = nil
        guard let url = base.url else {
            throw ViewHostError(kind: .invalidRequest, title: "invalid request", detail: "'\(path)' is not a URL path")
        }
        return url
    }

    /// `text` as one path segment: everything but letters, digits, `-`, `_` and `~` percent-encoded (dots too), so
    /// an id or a feature name can never add a segment, climb one, or start a query (`../../metrics?` stays one
    /// segment).
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .unreservedURLCharacters) ?? ""
    }

    /// A request with the token, if any, and JSON accepted.
    func request(_ method: String, _ url: URL, token: String?, body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: configuration.idleTimeout.seconds)
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
            answer = try await collector.data(for: request, on: session)
        } catch let error as AnswerCollector.TooLarge {
            throw .invalidResponse(
                "the answer is larger than \(error.limit) bytes, the client's bound (maxAnswerBytes)")
        } catch {
            throw .transport(error, request: request)
        }
        guard let response = answer.1 as? HTTPURLResponse else {
            throw .invalidResponse("the answer is not HTTP")
        }
        return (answer.0, response)
    }

    /// Runs `request` and fails unless the status is `expected`: with the problem for an error status, as an
    /// answer the API does not promise for another success (a `200` HTML page where a `201` was due: a proxy's or
    /// another server's).
    func expecting(_ expected: Set<Int>, _ request: URLRequest) async throws(ViewHostError) -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard expected.contains(response.statusCode) else {
            guard (200..<400).contains(response.statusCode) else {
                throw .problem(status: response.statusCode, body: data, headers: response)
            }
            let type = response.value(forHTTPHeaderField: "Content-Type").map { " (\($0))" } ?? ""
            let wanted = expected.sorted().map(String.init).joined(separator: " or ")
            throw .invalidResponse(
                "the server answered \(response.statusCode)\(type) where the API answers \(wanted): is \(baseURL) a ViewHost server?",
                status: response.statusCode)
        }
        return (data, response)
    }

    /// Decodes a JSON answer.
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data, status: Int) throws(ViewHostError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .invalidResponse(
                "the \(status) answer is not what the API promises: \(Self.words(for: error))", status: status)
        }
    }

    /// What is wrong with a JSON document, in words (`it is not JSON`, `it lacks 'token'`, `'version' is not a
    /// number`), without the decoder's Swift type names.
    static func words(for error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
        }
        func kind(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is Int.Type, is Double.Type: "a number"
            case is Bool.Type: "true or false"
            default: "of the type the API gives"
            }
        }
        switch error as? DecodingError {
        case .dataCorrupted(let context)?:
            return context.codingPath.isEmpty ? "it is not JSON" : "'\(path(context.codingPath))' is malformed"
        case .keyNotFound(let key, let context)?:
            return "it lacks '\(path(context.codingPath + [key]))'"
        case .typeMismatch(let type, let context)?:
            return context.codingPath.isEmpty
                ? "it is not a JSON object" : "'\(path(context.codingPath))' is not \(kind(type))"
        case .valueNotFound(_, let context)?:
            return "'\(path(context.codingPath))' is null"
        default:
            return "it does not decode"
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

extension CharacterSet {
    /// RFC 3986's unreserved characters but the dot: letters, digits, `-`, `_`, `~`.
    static let unreservedURLCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~")
}

extension Duration {
    /// The duration in seconds, as `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
