/// A loop-confined value carried through a `@Sendable` closure back to its own loop (after NIO's `NIOLoopBound`).
///
/// `@unchecked Sendable` invariant: `value` is only read on `loop`'s thread; the getter checks it.
struct LoopBound<Value>: @unchecked Sendable {
    private let wrapped: Value
    let loop: EventLoop

    init(_ value: Value, loop: EventLoop) {
        self.wrapped = value
        self.loop = loop
    }

    var value: Value {
        loop.preconditionInLoop()
        return wrapped
    }
}
