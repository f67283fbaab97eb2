import Synchronization

/// An ``HTTPHandlerResult/Answer`` that passes on its first call only: a handler that answered twice by mistake
/// must not answer the connection's next request.
final class OnceAnswer: Sendable {
    private let answered = Atomic<Bool>(false)
    private let wrapped: HTTPHandlerResult.Answer

    init(_ wrapped: @escaping HTTPHandlerResult.Answer) {
        self.wrapped = wrapped
    }

    /// Passes `outcome` on, unless an answer was passed already.
    @Sendable func answer(_ outcome: Result<HTTPResponse, any Error>) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wrapped(outcome)
    }
}
