import Foundation
import HTTPCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// systemd's `LISTEN_FDS`/`LISTEN_PID` read as `sd_listen_fds` reads them, and a passed descriptor checked before
/// it is served on.
struct SocketActivationTests {
    @Test func theDescriptorsStartAtThreeForThisProcessOnly() throws {
        #expect(try SocketActivation.descriptors(environment: [:], processID: 42) == [])
        #expect(
            try SocketActivation.descriptors(environment: ["LISTEN_FDS": "2", "LISTEN_PID": "42"], processID: 42)
                == [3, 4])
        // Inherited from a parent they were meant for: ignored, as sd_listen_fds does.
        #expect(
            try SocketActivation.descriptors(environment: ["LISTEN_FDS": "2", "LISTEN_PID": "41"], processID: 42)
                == [])
        #expect(try SocketActivation.descriptors(environment: ["LISTEN_FDS": "1"], processID: 42) == [])
        #expect(
            try SocketActivation.descriptors(
                environment: ["LISTEN_FDS": "1", "LISTEN_PID": "42", "LISTEN_FDNAMES": "http"], processID: 42) == [3])
    }

    @Test func aCountOrProcessThatIsNoNumberOrTooLargeIsRefused() {
        #expect(throws: SocketActivationError.badCount("three")) {
            try SocketActivation.descriptors(environment: ["LISTEN_FDS": "three", "LISTEN_PID": "42"], processID: 42)
        }
        #expect(throws: SocketActivationError.tooMany(100_000)) {
            try SocketActivation.descriptors(environment: ["LISTEN_FDS": "100000", "LISTEN_PID": "42"], processID: 42)
        }
        #expect(throws: SocketActivationError.tooMany(-1)) {
            try SocketActivation.descriptors(environment: ["LISTEN_FDS": "-1", "LISTEN_PID": "42"], processID: 42)
        }
        #expect(throws: SocketActivationError.badCount("99999999999999999999999")) {
            try SocketActivation.descriptors(
                environment: ["LISTEN_FDS": "99999999999999999999999", "LISTEN_PID": "42"], processID: 42)
        }
        #expect(throws: SocketActivationError.badProcessID("me")) {
            try SocketActivation.descriptors(environment: ["LISTEN_FDS": "1", "LISTEN_PID": "me"], processID: 42)
        }
    }

    @Test func aListeningTCPSocketIsAdoptedWithItsAddress() throws {
        let socket = try TestSockets.tcp()
        defer { close(socket.fd) }
        let adopted = try ListeningSocket.adopt(socket.fd)
        #expect(adopted.address.port == socket.port)
        #expect(fcntl(socket.fd, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test func whatIsNoListeningTCPSocketIsRefusedSayingWhatItIs() throws {
        let idle = try TestSockets.tcp(listening: false)
        defer { close(idle.fd) }
        #expect(throws: ListeningSocketError.notListening(fd: idle.fd)) { try ListeningSocket.adopt(idle.fd) }
        let datagram = try TestSockets.udp()
        defer { close(datagram.fd) }
        #expect(throws: ListeningSocketError.notAStreamSocket(fd: datagram.fd)) {
            try ListeningSocket.adopt(datagram.fd)
        }
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        #expect(throws: ListeningSocketError.notASocket(fd: file)) { try ListeningSocket.adopt(file) }
        #expect(throws: ListeningSocketError.notOpen(fd: 9999)) { try ListeningSocket.adopt(9999) }
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { pair.forEach { close($0) } }
        #expect(throws: ListeningSocketError.self) { try ListeningSocket.adopt(pair[0]) }
    }
}
