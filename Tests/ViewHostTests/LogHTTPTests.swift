import ViewHost
import Foundation
import HTTPCore
import Testing
import TestSupport
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI

/// API.md "the data-flow log": `GET /v1/sessions/{id}/log?since=SEQ`, and `causedBy` chains that explain why a
/// snapshot changed.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct LogHTTPTests {
    @Test func logEntriesHaveTheDocumentedMembers() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            app.advance(by: .milliseconds(500))
            let response = try await app.request("GET", session.path("log"), token: session.token)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "private, no-cache")
            let entries = try response.json.array
            #expect(entries.count >= 2)
            for entry in entries {
                #expect(entry.keys == ["at", "causedBy", "event", "feature", "seq", "source", "summary", "versionAfter"])
                #expect(["client", "timer", "simulator", "provider", "view"].contains(entry["source"].string ?? ""))
                #expect(entry["causedBy"].isNull || entry["causedBy"].int != nil)
            }
            let seqs = entries.compactMap { $0["seq"].int }
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "oldest first, each once")
            #expect(entries.first?["at"].string == "2026-11-23T14:00:00.000Z")
            let loaded = try #require(entries.first { $0["event"].string == "loaded" })
            #expect(loaded["feature"].string == "chat")
            #expect(loaded["at"].string == "2026-11-23T14:00:00.500Z", "applied at the timer's own time")
            #expect(loaded["causedBy"].int != nil, "the load was scheduled by an earlier step")
            #expect(loaded["versionAfter"].int == (try await app.snapshot(session))["version"].int)
        }
    }

    @Test func sinceFiltersAndBadSinceIs400() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            let before = try await app.log(session)
            let last = try #require(before.last?["seq"].int)
            #expect(try await app.log(session, since: last).isEmpty)
            try await app.send(session, "chat", #"{"type":"addChat"}"#)
            let after = try await app.log(session, since: last)
            #expect(after.map { $0["event"].string } == ["addChat"])
            #expect(after.first?["source"].string == "client")
            #expect(after.first?["seq"].int == last + 1)
            for bad in ["abc", "-1", "1.5", ""] {
                let response = try await app.request("GET", session.path("log") + "?since=\(bad)", token: session.token)
                #expect(response.status == 400, "since=\(bad)")
                #expect(response.problemFields == ["since"])
            }
        }
    }

    @Test func logHeadersNameTheLatestSequence() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            app.advance(by: .milliseconds(500))
            let response = try await app.request("GET", session.path("log"), token: session.token)
            let last = try response.json.array.last?["seq"].int
            #expect(response.header("X-Log-Latest-Seq") == last.map(String.init))
            #expect(response.header("X-Log-Oldest-Seq") == "1")
        }
    }

    @Test func aBotReplyLeadsBackToTheUsersSend() async throws {
        try await TestApp.run { app in
            let session = try await app.createQuietSession()
            app.advance(by: .milliseconds(500))
            try await app.send(session, "chat", #"[{"type":"openChat","contact":"John"},{"type":"send","text":"Hello bot"}]"#)
            app.advance(by: .seconds(20))  // sent (1.5 s), receipt (≤ 4.5 s), first reply (≤ 14 s later)
            let entries = try await app.log(session)
            let bySeq = Dictionary(entries.compactMap { entry in entry["seq"].int.map { ($0, entry) } }) { first, _ in first }
            let reply = try #require(
                entries.first { $0["event"].string == "received" && $0["source"].string != "client" },
                "no bot reply in \(entries.map { $0["event"].string ?? "?" })")
            // Follow causedBy to the root: the first client entry on the way, and the root, is the user's send.
            var chain: [String] = []
            var current: JSON? = reply
            while let entry = current, chain.count < 20 {
                chain.append("\(entry["event"].string ?? "?")/\(entry["source"].string ?? "?")")
                current = entry["causedBy"].int.flatMap { bySeq[$0] }
                if current == nil { #expect(entry["causedBy"].isNull, "the chain breaks at \(entry)") }
            }
            #expect(chain.last == "send/client", "\(chain)")
            #expect(chain.first { $0.hasSuffix("/client") }.map { ["send/client", "sending/client"].contains($0) } == true)
            #expect(chain.contains { $0.hasPrefix("otherRead") || $0.hasPrefix("readReceiptDue") }, "\(chain)")
            let send = try #require(entries.first { $0["event"].string == "send" })
            #expect(send["summary"].string?.contains("Hello bot") == true)
        }
    }

    @Test func logIsBoundedByItsCapacity() async throws {
        try await TestApp.run({ $0.sessions.logCapacity = 8 }) { app in
            let session = try await app.createQuietSession()
            let batch = "[" + Array(repeating: #"{"type":"appBecomeActive"}"#, count: 20).joined(separator: ",") + "]"
            try await app.send(session, "chat", batch)
            let entries = try await app.log(session)
            #expect(entries.count == 8)
            #expect(entries.last?["event"].string == "appBecomeActive")
            let seqs = entries.compactMap { $0["seq"].int }
            #expect(seqs == Array((seqs.first ?? 0)..<(seqs.first ?? 0) + 8), "the newest eight, in order")
        }
    }
}
