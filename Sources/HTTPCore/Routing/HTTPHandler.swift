/// What a handler gives back: a response now, or one that comes later.
///
/// Handlers run on the connection's event loop thread, so a `.response` costs no thread hop; they must not
/// block. Anything that waits (an actor, a long poll, I/O) answers ``later(_:)``: the connection's later pipelined
/// requests wait, in order, until it does. ``deferred(_:)`` makes such an answer from async work, on a task; an
/// answer that waits on a callback anyway (a store's commit) is given from that callback, with no task.
public enum HTTPHandlerResult: Sendable {
    /// Called once with the response or the error that answers the request, from any thread.
    public typealias Answer = @Sendable (Result<HTTPResponse, any Error>) -> Void

    /// The response, ready now.
    case response(HTTPResponse)
    /// Work started at once (on the event loop) that answers later through the ``Answer`` it is given, on any
    /// thread; an error is answered as one thrown by a synchronous handler. Only the first answer counts. Nothing
    /// runs on a task unless the work starts one: for an answer that waits on a callback anyway (a store's
    /// commit), a task and the hop to the cooperative pool and back cost more than the work.
    case later(@Sendable (_ answer: @escaping Answer) -> Void)

    /// An answer made later by async work, which runs on a task of its own; what it throws is answered as for
    /// synchronous handlers.
    public static func deferred(_ work: @escaping @Sendable () async throws -> HTTPResponse) -> HTTPHandlerResult {
        .later { answer in
            Task {
                do {
                    answer(.success(try await work()))
                } catch {
                    answer(.failure(error))
                }
            }
        }
    }
}

extension HTTPHandlerResult {
    /// The response, waited for when it comes later.
    public func response() async throws -> HTTPResponse {
        switch self {
        case .response(let response):
            return response
        case .later(let start):
            return try await withCheckedThrowingContinuation { continuation in
                let once = OnceAnswer { continuation.resume(with: $0) }
                start(once.answer)
            }
        }
    }

    /// The same result with `transform` applied, once, to its outcome (the response, or the error answering it),
    /// however it comes: at once, or later (then on the thread that answers).
    /// - Throws: What `transform` throws for a response ready now.
    public func map(
        _ transform: @escaping @Sendable (Result<HTTPResponse, any Error>) throws -> HTTPResponse
    ) throws -> HTTPHandlerResult {
        switch self {
        case .response(let response):
            return .response(try transform(.success(response)))
        case .later(let start):
            return .later { answer in
                let once = OnceAnswer { outcome in answer(Result { try transform(outcome) }) }
                start(once.answer)
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
