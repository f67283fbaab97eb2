import Foundation
import Testing
import TestSupport
import LoginAPI
import PersonAPI
import ChatAPI
import WeatherAPI
import ViewHostAPI
import ViewHostClient
import ViewHostLocking

/// A flag one task sets and another reads.
private final class Flag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// `viewhost client …` against a running server: output for people and for scripts, problems as one line on
/// stderr with a sysexits status.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ClientCommandTests {
    /// Runs `viewhost client ARGUMENTS` off the test's task (it blocks until the command exits).
    private func client(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await Task.detached {
            try await ServerProcess.run(["client"] + arguments, environment: environment)
        }.value
    }

    /// A server, and a session made by `session new --json`, in the environment the other commands read.
    private func newSession(_ server: ServerProcess, features: [String]) async throws -> [String: String] {
        let base = ["VIEWHOST_SERVER": "http://127.0.0.1:\(server.port)"]
        let created = try await client(
            ["session", "new", "--json"] + features.flatMap { ["--feature", $0] }, environment: base)
        try #require(created.status == 0, "\(created)")
        let fields = try JSONDecoder().decode([String: String].self, from: Data(created.stdout.utf8))
        #expect(Set(fields.keys) == ["id", "token", "expiresAt"])
        return base.merging(["VIEWHOST_SESSION": fields["id"] ?? "", "VIEWHOST_TOKEN": fields["token"] ?? ""]) { $1 }
    }

    @Test func sessionNewPrintsIDTokenAndExports() async throws {
        let server = try await TestServer.start()
        let created = try await client(["session", "new", "--server", "http://127.0.0.1:\(server.port)"])
        #expect(created.status == 0)
        let lines = created.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("session  "))
        #expect(lines[1].hasPrefix("token    "))
        #expect(lines[3].hasPrefix("export VIEWHOST_SESSION="))
        #expect(created.stderr == "")
    }

    @Test func getSendActionsAndWatch() async throws {
        let server = try await TestServer.start()
        let environment = try await newSession(server, features: ["login", "person"])

        let sent = try await client(["send", "login", "setUsername", "value=annabelle"], environment: environment)
        #expect(sent.status == 0)
        #expect(sent.stdout == "accepted 1 event; login version 2\n")
        let sentJSON = try await client(
            ["send", "login", "setPassword", "value=secret123", "--json"], environment: environment)
        #expect(sentJSON.stdout == #"{"accepted":1,"version":3}"# + "\n")

        let got = try await client(["get", "login"], environment: environment)
        #expect(got.status == 0)
        let lines = got.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == #"login version 3: username "annabelle"; password 9 characters; login enabled"#)
        #expect(lines.contains("  username: annabelle"))
        #expect(lines.contains("  loginEnabled: true"))
        #expect(lines.contains(#"  instruction: """#))
        #expect(lines.contains("  colors:"))
        #expect(lines.contains { $0.hasPrefix("    loginButton: #") })
        #expect(!lines.contains { $0.contains("actions") })

        let json = try await client(["get", "person", "--json"], environment: environment)
        let person = try JSONDecoder().decode(PersonSnapshot.self, from: Data(json.stdout.utf8))
        #expect(person.nameText == "Dr. first last")

        let actions = try await client(["actions", "login"], environment: environment)
        #expect(actions.status == 0)
        #expect(
            actions.stdout == """
                login        send login login
                setPassword  send login setPassword  value={value}
                setUsername  send login setUsername  value={value}

                """)

        let watched = try await client(["watch", "login", "--limit", "1"], environment: environment)
        #expect(watched.status == 0)
        #expect(watched.stdout.hasPrefix("login  v3  seq "))
        #expect(watched.stdout.hasSuffix(#"username "annabelle"; password 9 characters; login enabled"# + "\n"))
        let watchedJSON = try await client(["watch", "--limit", "2", "--json"], environment: environment)
        let frames = watchedJSON.stdout.split(separator: "\n")
        #expect(frames.count == 2)
        for frame in frames {
            let object = try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any]
            #expect(object?["snapshot"] is [String: Any])
            #expect(["login", "person"].contains(object?["feature"] as? String))
        }
    }

    @Test func watchPrintsLiveChanges() async throws {
        let server = try await TestServer.start()
        let environment = try await newSession(server, features: ["login"])
        let finished = Flag()
        let watch = Task.detached {
            defer { finished.set() }
            return try await ServerProcess.run(["client", "watch", "--limit", "2"], environment: environment)
        }
        // Keep changing the session until the watcher has printed its first snapshot and one change.
        let session = TestServer.client(port: server.port).session(
            id: environment["VIEWHOST_SESSION"] ?? "", token: environment["VIEWHOST_TOKEN"] ?? "")
        for value in 1...50 where !finished.isSet {
            try await session.send(LoginIntent.setUsername(value: "user\(value)"))
            try await Task.sleep(for: .milliseconds(200))
        }
        let watched = try await watch.value
        #expect(watched.status == 0, "\(watched)")
        let rows = watched.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.first == "login" })
        #expect(rows.count == 2 && rows[0][1] != rows[1][1], "two versions")
        #expect(watched.stdout.contains("username \"user"))
    }

    @Test func problemsAreOneLineWithASysexitsStatus() async throws {
        let server = try await TestServer.start()
        let environment = try await newSession(server, features: ["login"])

        let unknown = try await client(["send", "login", "fly"], environment: environment)
        #expect(unknown.status == 65)
        #expect(unknown.stdout == "")
        #expect(
            unknown.stderr
                == "viewhost: 422 Unprocessable Content: Unknown event type 'fly'; allowed types: setUsername, setPassword, login.\n"
        )

        let refused = try await client(["send", "login", "login"], environment: environment)
        #expect(refused.status == 65, "a 409 the state gives is not transient")
        #expect(refused.stderr.hasPrefix("viewhost: 409 Conflict: "))
        #expect(refused.stderr.hasSuffix(" (allowed: setUsername, setPassword)\n"))
        #expect(refused.stderr.split(separator: "\n").count == 1)

        let noFeature = try await client(["get", "weather"], environment: environment)
        #expect(noFeature.status == 67)
        #expect(noFeature.stderr == "viewhost: 404 Not Found: This session has no feature 'weather'.\n")

        let wrongToken = try await client(["get", "login", "--token", "nope"], environment: environment)
        #expect(wrongToken.status == 67)

        let noSession = try await client(
            ["get", "login"], environment: ["VIEWHOST_SERVER": environment["VIEWHOST_SERVER"]!])
        #expect(noSession.status == 64)
        #expect(noSession.stderr.hasPrefix("viewhost: no session: give --session ID or set VIEWHOST_SESSION"))

        let badField = try await client(["send", "login", "setUsername", "value"], environment: environment)
        #expect(badField.status == 64)
        #expect(badField.stderr == "viewhost: 'value' is not key=value\n")

        // key:=JSON posts a value of any JSON scalar (an integer placeholder's `votes:=3`): a quoted string is a
        // string, a number where the feature takes text is refused by the server, and what is not JSON never leaves.
        let quoted = try await client(["send", "login", "setUsername", #"value:="ann""#], environment: environment)
        #expect(quoted.status == 0, "\(quoted)")
        let number = try await client(["send", "login", "setUsername", "value:=3"], environment: environment)
        #expect(number.status == 65)
        #expect(number.stderr.hasPrefix("viewhost: 422 Unprocessable Content: "), "\(number.stderr)")
        let notJSON = try await client(["send", "login", "setUsername", "value:=ann"], environment: environment)
        #expect(notJSON.status == 64)
        #expect(notJSON.stderr == #"viewhost: 'value:=ann' is not key:=JSON (a number, true, false, null or a "string")"# + "\n")

        let unreachable = try await client(
            ["get", "login", "--server", "http://127.0.0.1:1"], environment: environment)
        #expect(unreachable.status == 69)
        #expect(unreachable.stderr.hasPrefix("viewhost: transport: "))
        #expect(unreachable.stderr.split(separator: "\n").count == 1)
    }
}
