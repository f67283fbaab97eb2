/// Takes sessions' deliveries to contacts to the sessions they are for: what a host plugs into
/// ``SessionEnvironment/courier``. The library's session calls it once an input that made deliveries is durable (and
/// when a session with deliveries waiting starts); the courier then reads them (``Session/readyDeliveries(maxEvents:)``),
/// has each receiving session apply them (``Session/receive(_:)``), and tells the sender what became of them
/// (``Session/acknowledge(_:to:through:failure:)``), retrying until one of the two happened: the sender keeps each
/// delivery in its value until it is acknowledged, and the receiver applies each number once, so a crash at any
/// moment loses nothing acknowledged and doubles nothing.
public protocol DeliveryCourier: Sendable {
    /// `session` has deliveries ready for their receivers (called outside its lock, on any thread; must not block).
    func deliveriesReady(in session: Session)
}
