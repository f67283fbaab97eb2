import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// systemd socket activation on the real binary: the test binds and listens as a socket unit does, and starts
/// `viewhost` with the socket as descriptor 3, `LISTEN_FDS=1` and `LISTEN_PID` its own pid (a shell sets it to `$$`
/// and execs the server, which keeps the pid).
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SocketActivationProcessTests {
    /// Sets `LISTEN_PID` to the pid the server will have, then execs it with its arguments.
    static let systemd = ["/bin/sh", "-c", #"LISTEN_PID=$$ exec "$0" "$@""#]

    @Test func theServerAnswersOnThePassedSocketNotOnItsPort() async throws {
        let socket = try TestSockets.tcp()
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0"], environment: ["LISTEN_FDS": "1", "LISTEN_FDNAMES": "http"],
            launcher: Self.systemd, passing: [socket.fd])
        close(socket.fd)  // the server's copy alone listens now
        #expect(server.port == socket.port)
        for _ in 0..<3 {
            let client = try HTTPTestClient(port: socket.port)
            try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
        }
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(server.standardErrorText().contains("serving on the sockets systemd passed"))
    }

    @Test func variablesMeantForAnotherProcessAreIgnored() async throws {
        let server = try await ServerProcess(
            arguments: ["serve", "--port", "0"], environment: ["LISTEN_FDS": "1", "LISTEN_PID": "1"])
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        #expect(!server.standardErrorText().contains("systemd"))
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    @Test func aSocketThatIsNotListeningIsRefusedWith78() async throws {
        let socket = try TestSockets.tcp(listening: false)
        defer { close(socket.fd) }
        try await expectRefusal(passing: [socket.fd], naming: "file descriptor 3 is a socket that is not listening")
    }

    @Test func aDatagramSocketIsRefusedWith78() async throws {
        let socket = try TestSockets.udp()
        defer { close(socket.fd) }
        try await expectRefusal(passing: [socket.fd], naming: "file descriptor 3 is not a stream (TCP) socket")
    }

    @Test func aFileIsRefusedWith78() async throws {
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        try await expectRefusal(passing: [file], naming: "file descriptor 3 is not a socket")
    }

    @Test func aCountWithoutItsDescriptorsIsRefusedWith78() async throws {
        let socket = try TestSockets.tcp()
        defer { close(socket.fd) }
        // Whatever descriptor 4 is in the child (nothing, or something the shell or test runner left open), it is
        // no listening socket.
        try await expectRefusal(
            passing: [socket.fd], count: "2", naming: "cannot be served on: file descriptor 4 is not")
    }

    @Test(arguments: [("many", "LISTEN_FDS is not a number: 'many'"), ("100000", "LISTEN_FDS is 100000, outside")])
    func aCountThatIsNoNumberOrTooLargeIsRefusedWith78(count: String, message: String) async throws {
        try await expectRefusal(passing: [], count: count, naming: message)
    }

    private func expectRefusal(passing descriptors: [Int32], count: String = "1", naming cause: String) async throws {
        let result = try await ServerProcess.run(
            ["serve", "--port", "0"], environment: ["LISTEN_FDS": count], launcher: Self.systemd,
            passing: descriptors)
        #expect(result.status == 78)
        #expect(result.stderr.contains(cause), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("listening on"))
    }
}
