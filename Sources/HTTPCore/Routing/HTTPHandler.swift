/// What a handler gives back: a response now, or work that produces one later.
///
/// Handlers run on the connection's event loop thread, so a `.response` costs no thread hop; they must not
/// block. Anything that waits (an actor, a long poll, I/O) returns `.deferred`, which runs on a task, or
/// `.callback`, which makes no task; either keeps the connection's later pipelined requests waiting, in order.
public enum HTTPHandlerResult: Sendable {
    /// Called once with the response or the error that answers the request, from any thread.
    public typealias Answer = @Sendable (Result<HTTPResponse, any Error>) -> Void

    /// The response, ready now.
    case response(HTTPResponse)
    /// Work that produces the response; thrown errors are answered as for synchronous handlers.
    case deferred(@Sendable () async throws -> HTTPResponse)
    /// Work started at once (on the event loop) that answers later through the ``Answer`` it is given, on any
    /// thread, without a task: for an answer that waits on a callback anyway (a store's commit), a task and the
    /// hop to the cooperative pool and back cost more than the work. Only the first answer counts.
    case callback(@Sendable (_ answer: @escaping Answer) -> Void)
}

extension HTTPHandlerResult {
    /// The response, waited for when it comes later.
    public func response() async throws -> HTTPResponse {
        switch self {
        case .response(let response): return response
        case .deferred(let work): return try await work()
        case .callback(let start):
            return try await withCheckedThrowingContinuation { continuation in
                let once = OnceAnswer { continuation.resume(with: $0) }
                start(once.answer)
            }
        }
    }

    /// The same result with `transform` applied to its outcome (the response, or the error answering it), however
    /// it comes: at once, from a task, or through a callback.
    /// - Throws: What `transform` throws for a response ready now.
    public func map(
        _ transform: @escaping @Sendable (Result<HTTPResponse, any Error>) throws -> HTTPResponse
    ) throws -> HTTPHandlerResult {
        switch self {
        case .response(let response):
            return .response(try transform(.success(response)))
        case .deferred(let work):
            return .deferred {
                let outcome: Result<HTTPResponse, any Error>
                do {
                    outcome = .success(try await work())
                } catch {
                    outcome = .failure(error)
                }
                return try transform(outcome)
            }
        case .callback(let start):
            return .callback { answer in
                let once = OnceAnswer(answer)
                start { outcome in once.answer(Result { try transform(outcome) }) }
            }
        }
    }
}

/// A route handler: the request and its context in, a result out. Thrown ``HTTPResponseError``s choose their
/// own status; any other error is a `500`.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPHandlerResult

/// Answers requests: what the server calls for every parsed request.
///
/// Contract: `respond` is called on an event loop thread, once per request, in the order requests arrive on a
/// connection; it must return without blocking. ``Router`` is the usual implementation.
public protocol HTTPResponder: Sendable {
    /// Answers one request.
    /// - Parameters:
    ///   - request: The parsed request, body included.
    ///   - context: Its id, remote address, route parameters and logger.
    /// - Returns: The response, or deferred work that makes it.
    /// - Throws: An ``HTTPResponseError`` to answer with its problem, anything else for a `500`.
    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPHandlerResult
}
