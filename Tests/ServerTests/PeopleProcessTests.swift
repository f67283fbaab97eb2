import Foundation
import Testing
import TestSupport
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// People chatting through the real binary on its default store: a burst of messages from several people to one,
/// with the server killed (`kill -9`) and started again in the middle of it, arrives exactly once and in order per
/// sender, counted from the receiver's own journal export.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct PeopleProcessTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-people-\(UUID().uuidString)")
        .path

    func start() async throws -> ServerProcess {
        try await ServerProcess(arguments: ["serve", "--port", "0", "--store", "sqlite", "--data-dir", directory])
    }

    static let senders = 5
    static let messagesPerSender = 100

    /// Five people each write 100 messages to Rita (500 in all, over five chats, so the chat's own window of the
    /// latest messages per chat hides none), each message posted with an `Idempotency-Key` and posted again until it
    /// is answered `202`, while the server is killed and started again twice. Rita's journal export then holds each
    /// message exactly once, and each sender's in the order they were sent.
    @Test func aBurstAcrossKillNineArrivesExactlyOnceInOrder() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = try await start()
        let rita = try await ProcessHTTP.createSession(server.port, features: ["chat"])
        var senders: [(id: String, token: String)] = []
        for index in 1...Self.senders {
            let sender = try await ProcessHTTP.createSession(server.port, features: ["chat"])
            try await Self.introduce(sender, on: server.port, as: "Sender \(index)", to: rita, on: server.port)
            senders.append(sender)
        }
        let shared = Shared(port: server.port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, sender) in senders.enumerated() {
                group.addTask {
                    for number in 0..<Self.messagesPerSender {
                        let text = "m-\(index + 1)-\(number)"
                        try await Self.post(text, from: sender, shared: shared)
                    }
                }
            }
            for _ in 0..<2 {
                // Kill in the middle of the burst: once some messages were acknowledged, well before the last.
                let deadline = TestDeadline.after(.seconds(60))
                while shared.acknowledged.withLock({ $0 }) < Self.senders * Self.messagesPerSender / 3,
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(10))
                }
                server.send(signal: SIGKILL)
                _ = try await server.waitForExit()
                shared.acknowledged.withLock { $0 = 0 }
                server = try await start()
                shared.port.withLock { $0 = server.port }
            }
            try await group.waitForAll()
        }
        #expect(shared.unexpected.withLock { $0 }.isEmpty, "\(shared.unexpected.withLock { $0 })")
        // Every message acknowledged arrives: wait until Rita's journal holds as many as were sent.
        let expected = Self.senders * Self.messagesPerSender
        var arrived: [String] = []
        let deadline = TestDeadline.after(.seconds(90))
        repeat {
            let export = try await ProcessHTTP.request(
                server.port, "GET", "/v1/sessions/\(rita.id)/journal", token: rita.token, timeout: .seconds(30))
            try #require(export.status == 200, "\(export.status)")
            arrived = Self.deliveredTexts(in: export.text)
            if arrived.count >= expected { break }
            try await Task.sleep(for: .milliseconds(200))
        } while ContinuousClock.now < deadline
        #expect(arrived.count == expected, "\(arrived.count) messages in Rita's journal, \(expected) sent")
        let twice = Dictionary(grouping: arrived) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
        #expect(twice.isEmpty, "messages in Rita's journal twice: \(twice)")
        for index in 1...Self.senders {
            let numbers = arrived.filter { $0.hasPrefix("m-\(index)-") }.compactMap { Int($0.split(separator: "-")[2]) }
            #expect(numbers == Array(0..<Self.messagesPerSender), "sender \(index)'s messages, in the order they arrived")
        }
        let metrics = try await ProcessHTTP.request(server.port, "GET", "/metrics").text
        #expect(metrics.contains("viewhost_deliveries_delivered_total"))
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// Makes `sender` (on the server at `senderPort`) and Rita (at `ritaPort`) contacts: Rita invites as "Rita", the
    /// sender redeems her code as `name`; each answer must be `201`.
    static func introduce(
        _ sender: (id: String, token: String), on senderPort: Int, as name: String,
        to rita: (id: String, token: String), on ritaPort: Int
    ) async throws {
        let invited = try await ProcessHTTP.request(
            ritaPort, "POST", "/v1/sessions/\(rita.id)/invitations", token: rita.token,
            body: #"{"purpose":"contact","features":["chat"],"name":"Rita"}"#)
        try #require(invited.status == 201, "\(invited.status) \(invited.text)")
        let code = try #require(ProcessHTTP.json(invited)?["code"] as? String)
        let redeemed = try await ProcessHTTP.request(
            senderPort, "POST", "/v1/sessions/\(sender.id)/contacts", token: sender.token,
            body: #"{"code":"\#(code)","name":"\#(name)"}"#)
        try #require(redeemed.status == 201, "\(redeemed.status) \(redeemed.text)")
    }

    /// Posts `text` to the sender's chat with Rita, with an `Idempotency-Key`, again and again until it is answered
    /// `202` (a killed server answers nothing, a starting one may answer `503`, a busy one `429`).
    static func post(_ text: String, from sender: (id: String, token: String), shared: Shared) async throws {
        let deadline = TestDeadline.after(.seconds(120))
        while ContinuousClock.now < deadline {
            let response = try? await ProcessHTTP.request(
                shared.port.withLock { $0 }, "POST", "/v1/sessions/\(sender.id)/chat/events", token: sender.token,
                body: #"{"type":"send","contact":"Rita","text":"\#(text)"}"#, headers: ["Idempotency-Key": text],
                timeout: .seconds(5))
            if let response, response.status == 202 {
                shared.acknowledged.withLock { $0 += 1 }
                return
            }
            if let response, ![429, 503].contains(response.status) {
                shared.unexpected.withLock { $0.append("\(text): \(response.status) \(response.text)") }
                return
            }
            try await Task.sleep(for: .milliseconds(response?.status == 429 ? 100 : 20))
        }
        shared.unexpected.withLock { $0.append("\(text): never answered 202") }
    }

    /// The texts of the messages delivered to the session whose journal export `text` is, one per delivered
    /// message, in the order they were applied.
    static func deliveredTexts(in export: String) -> [String] {
        var texts: [String] = []
        for line in export.split(separator: "\n") where line.contains(#""kind":"delivery""#) {
            guard let data = String(line).data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let events = object["events"] as? [Any]
            else { continue }
            for event in events {
                let text = String(
                    decoding: (try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])) ?? Data(),
                    as: UTF8.self)
                if let range = text.range(of: #"m-\d+-\d+"#, options: .regularExpression) {
                    texts.append(String(text[range]))
                }
            }
        }
        return texts
    }

    final class Shared: Sendable {
        let port: Locked<Int>
        let unexpected = Locked<[String]>([])
        /// Messages answered `202` since the last start.
        let acknowledged = Locked<Int>(0)
        /// Senders that have posted all their messages.
        let finished = Locked<Int>(0)

        init(port: Int) { self.port = Locked(port) }
    }
}
