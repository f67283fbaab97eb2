import Foundation
import HTTPCore
import ViewHostJSON
import ViewModelCore

/// Deliveries between sessions of different nodes: the node that runs the sender's courier sends each batch to the
/// internal listener of the node that owns the receiving session (`POST /v1/deliveries/{id}`, a hop like any other:
/// the secret, never forwarded again), which applies it there and answers once it is durable. A repeat is harmless
/// (the receiver applies each number once), so a batch whose answer was lost is simply sent again.
extension ClusterHop {
    /// The internal route's path, before the receiving session's id.
    static let deliveryPath = "/v1/deliveries/"

    /// What the owner of a receiving session answered.
    enum DeliveryAnswer: Sendable {
        /// Its word on the batch (applied, refused and why, or not now).
        case answered(SessionCourier.Outcome)
        /// It could not be reached, or it is stopping and handed the session over: nothing was applied there.
        case unreachable
        /// It no longer owns the session.
        case misdirected
    }

    /// Sends `delivery` (`count` events) for session `id` to `peer`, which owns it.
    func deliver(_ delivery: IncomingDelivery, count: Int, to id: SessionID, at peer: PeerNode) async -> DeliveryAnswer
    {
        let request = HTTPRequest(
            method: .post, target: Self.deliveryPath + id.rawValue,
            headers: [
                .contentType: "application/json",
                // A repeat changes nothing there, so a kept connection that broke may carry it again.
                "Idempotency-Key": "\(delivery.from.rawValue)-\(delivery.first)",
            ],
            body: DeliveryBody.encode(delivery, count: count))
        do {
            let response = try await upstream.send(request, to: peer.address, setting: hopFields)
            switch response.status.code {
            case 204: return .answered(.applied)
            case 410: return .answered(.failed(.ended))
            case 404: return .answered(.failed(.unknownAddress))
            case 429: return .answered(.failed(.full))
            case 421:
                routes.forget(id)
                // A node that is stopping hands the session over (``HopDeparture``): take it, as from a gone node.
                return response.headers.contains(Self.handOffField) ? .unreachable : .misdirected
            default: return .answered(.retry("\(peer) answered \(response.status.code)"))
            }
        } catch .unreachable {
            routes.forget(id)
            routes.markUnreachable(peer)
            return .unreachable
        } catch {
            return .answered(.retry("\(error)"))
        }
    }
}

/// The body of a delivery hop: `{"count":N,"events":[…],"feature":"…","first":N,"from":"…","introduction":…}`, the
/// events as the sender's journal records them (its schema version with them).
enum DeliveryBody {
    static func encode(_ delivery: IncomingDelivery, count: Int) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("count")
        writer.integer(count)
        writer.key("events")
        writer.string(String(decoding: delivery.events, as: UTF8.self))
        writer.key("feature")
        writer.string(delivery.feature)
        writer.key("first")
        writer.integer(delivery.first)
        writer.key("from")
        writer.string(delivery.from.rawValue)
        writer.key("introduction")
        if let introduction = delivery.introduction { writer.string(introduction) } else { writer.null() }
        writer.endObject()
        return writer.bytes
    }

    /// The delivery a hop carries, and its number of events.
    /// - Throws: `AppError.invalidField` (422) naming what is missing or malformed.
    static func decode(_ value: JSONValue) throws(AppError) -> (delivery: IncomingDelivery, count: Int) {
        guard case .object(let members) = value else {
            throw .invalidField("body", reason: "must be a JSON object", status: .unprocessableContent)
        }
        func member(_ name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }
        func text(_ name: String) throws(AppError) -> String {
            guard case .string(let text)? = member(name) else {
                throw .invalidField(name, reason: "must be a string", status: .unprocessableContent)
            }
            return text
        }
        func number(_ name: String) throws(AppError) -> Int {
            guard case .number(let number)? = member(name), number == number.rounded(),
                (1...Double(SessionCore.maxCounter)).contains(number)
            else { throw .invalidField(name, reason: "must be a positive integer", status: .unprocessableContent) }
            return Int(number)
        }
        let from = try text("from")
        guard ContactAddress.isValid(from) else {
            throw .invalidField("from", reason: "must be a contact address", status: .unprocessableContent)
        }
        var introduction: String?
        if case .string(let name)? = member("introduction") { introduction = name }
        return (
            IncomingDelivery(
                feature: try text("feature"), from: ContactAddress(from), first: try number("first"),
                introduction: introduction, events: Data(try text("events").utf8)),
            try number("count")
        )
    }
}
