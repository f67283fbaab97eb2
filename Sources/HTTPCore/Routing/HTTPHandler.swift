/// What a handler gives back: a response now, or work that produces one later.
///
/// Handlers run on the connection's event loop thread, so a `.response` costs no thread hop; they must not
/// block. Anything that waits (an actor, a long poll, I/O) returns `.deferred`, which runs on a task and
/// keeps the connection's later pipelined requests waiting, in order.
public enum HTTPHandlerResult: Sendable {
    /// The response, ready now.
    case response(HTTPResponse)
    /// Work that produces the response; thrown errors are answered as for synchronous handlers.
    case deferred(@Sendable () async throws -> HTTPResponse)
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
