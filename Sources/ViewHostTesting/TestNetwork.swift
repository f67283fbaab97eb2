import Foundation
import ViewHostAPI
import ViewModelCore

/// Several sessions in one test, each a ``TestHost``, that make contacts and deliver events to each other as the
/// server's sessions do: a contact made as an invitation redeemed makes it (the redeeming session first, the other
/// once it is delivered the introduction), deliveries waiting as data (``deliveries(of:from:)``), run in order,
/// each number once, and acknowledged (``deliver()``), on one manual clock (``advance(by:)`` fires the hosts'
/// timers in due order and runs the deliveries they make at their instant).
///
/// ```swift
/// var network = TestNetwork(["alice": try TestHost(features: [.letters]), "bob": try TestHost(features: [.letters])])
/// let (toBob, _) = network.connect("alice", named: "Alice", to: "bob", named: "Bob", in: LettersApp.key)
/// network.deliver()                                             // Alice is told of Bob
/// try network["alice"].send(LettersIntent.write(to: "Bob", text: "Hi"), to: LettersApp.key)
/// #expect(network.deliveries(of: LettersApp.key, from: "alice").map(\.to) == ["bob"])
/// network.advance(by: .seconds(1))                              // delivered, applied once, acknowledged
/// #expect(network["bob"].state(of: LettersApp.key).received == ["Hi"])
/// ```
///
/// A session ended with ``end(_:)`` takes nothing more: what is delivered to it comes back to its sender as
/// `ended`; an address that leads nowhere from its sender (made up, or another session's) as `unknownAddress`.
public struct TestNetwork {
    /// Where an address leads: the session and feature it was made for, and the other side, with the address that
    /// side knows it by.
    struct Route: Equatable {
        let owner: String
        let feature: String
        let peer: String
        let peerAddress: ContactAddress
    }

    /// The sessions, by the names the test gave them.
    public private(set) var hosts: [String: TestHost]
    /// The network's clock: every host's stands here.
    public private(set) var now: Date
    private var routes: [ContactAddress: Route] = [:]
    private var ended: Set<String> = []
    private var addressesMade = 0

    /// The most delivery batches ``deliver()`` runs before it stops: features that answer every delivery with
    /// another would run for ever.
    public static let maxRounds = 10_000

    /// `hosts`, by name, on one clock (the latest of theirs).
    public init(_ hosts: [String: TestHost]) {
        let start = hosts.values.map(\.now).max() ?? TestHost.defaultStart
        var aligned = hosts
        for name in aligned.keys { aligned[name]?.advance(to: start) }
        self.hosts = aligned
        now = start
    }

    /// The host named `name` (a test sends to it and reads it as to a host alone).
    public subscript(name: String) -> TestHost {
        get {
            guard let host = hosts[name] else { preconditionFailure("the network has no host '\(name)'") }
            return host
        }
        set { hosts[name] = newValue }
    }

    /// Makes a contact between `inviter` and `redeemer` for `key`'s feature, as `redeemer` redeeming an invitation
    /// of `inviter`'s would: each gets an address for the other (`ContactAddress`, made here as `c1`, `c2`…), the
    /// redeemer's feature is introduced to the inviter (named `inviterName`) at once, and the inviter's to the
    /// redeemer (named `redeemerName`) when the introduction is delivered.
    /// - Returns: The inviter's address for the redeemer, and the redeemer's for the inviter.
    @discardableResult
    public mutating func connect<F: Feature>(
        _ inviter: String, named inviterName: String, to redeemer: String, named redeemerName: String,
        in key: FeatureKey<F>
    ) -> (inviter: ContactAddress, redeemer: ContactAddress) {
        let toRedeemer = makeAddress()
        let toInviter = makeAddress()
        routes[toRedeemer] = Route(owner: inviter, feature: key.name, peer: redeemer, peerAddress: toInviter)
        routes[toInviter] = Route(owner: redeemer, feature: key.name, peer: inviter, peerAddress: toRedeemer)
        var host = self[redeemer]
        var observed: [(String, Int, any ViewModel)] = []
        do {
            if let step = try host.core.introduce(
                Contact(name: inviterName, address: toInviter), in: key.name, as: redeemerName, at: now,
                observe: { observed.append(($0, $1, $2())) })
            {
                _ = host.record(step, observed)
            }
        } catch {
            preconditionFailure("host '\(redeemer)' has no feature \(key.name)")
        }
        self[redeemer] = host
        return (toRedeemer, toInviter)
    }

    /// The deliveries `key`'s feature of `host` made that are not acknowledged yet, in the order they were made,
    /// with the host each goes to (nil when the address leads nowhere from `host`).
    public func deliveries<F: Feature>(of key: FeatureKey<F>, from host: String) -> [TestDelivery<F.Event>] {
        self[host].core.deliveries(of: key).map { delivery in
            let route = routes[delivery.to].flatMap { $0.owner == host ? $0 : nil }
            return TestDelivery(
                from: host, to: route?.peer, address: delivery.to, number: delivery.number, event: delivery.event,
                introduction: delivery.introduction)
        }
    }

    /// Ends session `host`: what is delivered to it from now on comes back to its sender as `ended`.
    public mutating func end(_ host: String) {
        ended.insert(host)
    }

    /// Runs every delivery waiting, and those they make, until none is left: each batch applied by its receiver
    /// (numbers applied before skipped), then acknowledged by its sender; one that cannot arrive acknowledged with
    /// why.
    /// - Returns: What each input changed, by host, in order.
    @discardableResult
    public mutating func deliver() -> [NetworkStep] {
        var steps: [NetworkStep] = []
        for _ in 0..<Self.maxRounds {
            guard let (sender, batch) = nextBatch() else { break }
            steps += run(batch, from: sender)
        }
        return steps
    }

    /// Moves the clock by `duration`: the hosts' timers fire in due order, each at its instant, and the deliveries
    /// waiting run at each (and at the start and the end).
    @discardableResult
    public mutating func advance(by duration: Duration) -> [NetworkStep] {
        advance(to: now.addingTimeInterval(duration.seconds))
    }

    /// Moves the clock to `instant` (never back), as ``advance(by:)``.
    @discardableResult
    public mutating func advance(to instant: Date) -> [NetworkStep] {
        var steps = deliver()
        while let (name, due) = hosts.compactMap({ name, host in
            host.core.pendingTimers.map(\.dueAt).min().map { (name, $0) }
        }).filter({ $0.1 <= instant }).min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) {
            now = max(now, due)
            var host = self[name]
            steps += host.advance(to: due).map { NetworkStep(host: name, step: $0) }
            self[name] = host
            for other in hosts.keys where other != name { hosts[other]?.advance(to: now) }
            steps += deliver()
        }
        now = max(now, instant)
        for name in hosts.keys { hosts[name]?.advance(to: now) }
        return steps + deliver()
    }

    // MARK: - Private

    private mutating func makeAddress() -> ContactAddress {
        addressesMade += 1
        return ContactAddress("c\(addressesMade)")
    }

    /// The first batch waiting, of the first host by name that has one.
    private func nextBatch() -> (String, DeliveryBatch)? {
        for name in hosts.keys.sorted() where !ended.contains(name) {
            if let batch = try? self[name].core.deliveryBatches(upTo: nil).first { return (name, batch) }
        }
        return nil
    }

    /// Delivers `batch` of `sender`'s, and acknowledges it.
    private mutating func run(_ batch: DeliveryBatch, from sender: String) -> [NetworkStep] {
        var steps: [NetworkStep] = []
        var failure: DeliveryFailure?
        if let route = routes[batch.to], route.owner == sender, route.feature == batch.feature {
            if ended.contains(route.peer) {
                failure = .ended
            } else {
                var receiver = self[route.peer]
                var observed: [(String, Int, any ViewModel)] = []
                do {
                    if let step = try receiver.core.receive(
                        IncomingDelivery(batch, from: route.peerAddress), at: now,
                        observe: { observed.append(($0, $1, $2())) })
                    {
                        steps.append(NetworkStep(host: route.peer, step: receiver.record(step, observed)))
                    }
                    self[route.peer] = receiver
                } catch {
                    failure = .unknownAddress
                }
            }
        } else {
            failure = .unknownAddress
        }
        var host = self[sender]
        var observed: [(String, Int, any ViewModel)] = []
        if let step = host.core.acknowledge(
            batch.feature, to: batch.to, through: batch.last, failure: failure, at: now,
            observe: { observed.append(($0, $1, $2())) })
        {
            steps.append(NetworkStep(host: sender, step: host.record(step, observed)))
        }
        self[sender] = host
        return steps
    }
}

/// A delivery waiting in a ``TestNetwork``, as data.
public struct TestDelivery<Event: Equatable & Sendable>: Equatable, Sendable {
    /// The host that made it.
    public let from: String
    /// The host it goes to; nil when its address leads nowhere from its sender.
    public let to: String?
    /// The address it was delivered to.
    public let address: ContactAddress
    /// Its number among the sender's deliveries to that address.
    public let number: Int
    /// The event; nil for an introduction.
    public let event: Event?
    /// For an introduction, the name the sender gives itself.
    public let introduction: String?

    /// Creates one (tests compare with these).
    public init(
        from: String, to: String?, address: ContactAddress, number: Int, event: Event?, introduction: String? = nil
    ) {
        self.from = from
        self.to = to
        self.address = address
        self.number = number
        self.event = event
        self.introduction = introduction
    }
}

/// What one input changed in one host of a ``TestNetwork``.
public struct NetworkStep: Equatable, Sendable {
    /// The host.
    public let host: String
    /// What changed there.
    public let step: TestStep
}
