#if canImport(Glibc)
import Glibc
#endif

/// systemd socket activation (`sd_listen_fds(3)`): the service manager binds and listens, then starts the server
/// with the sockets as descriptors 3, 4, … and says so in `LISTEN_FDS`, `LISTEN_PID` (the process they are meant
/// for) and optionally `LISTEN_FDNAMES`. A restart keeps the sockets open in systemd, so connections queue
/// instead of being refused while the new process starts.
public enum SocketActivation {
    /// The first passed descriptor (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3
    /// More passed sockets than this is refused: no unit needs more, and a huge count is a broken environment.
    public static let maxDescriptors = 64

    /// The descriptors the environment passes to process `processID`, unchecked: empty when `LISTEN_FDS` is not
    /// set, or `LISTEN_PID` names another process (the variables were inherited from a parent, as
    /// `sd_listen_fds` ignores them).
    /// - Throws: ``SocketActivationError`` for a `LISTEN_PID` or `LISTEN_FDS` that is not a number, or a count
    ///   outside 0...``maxDescriptors``.
    public static func descriptors(environment: [String: String], processID: Int32) throws(SocketActivationError)
        -> [Int32]
    {
        guard let countText = environment["LISTEN_FDS"] else { return [] }
        guard let pidText = environment["LISTEN_PID"] else { return [] }
        guard let pid = Int32(pidText), pid > 0 else { throw .badProcessID(pidText) }
        guard pid == processID else { return [] }
        guard let count = Int(countText) else { throw .badCount(countText) }
        guard (0...maxDescriptors).contains(count) else { throw .tooMany(count) }
        return (0..<count).map { firstDescriptor + Int32($0) }
    }

    /// Reads the passed sockets from this process's environment, removes the variables (so children spawned
    /// later do not take them as theirs), and adopts each (``ListeningSocket/adopt(_:)``).
    /// - Returns: The sockets; empty when none were passed to this process.
    /// - Throws: ``SocketActivationError`` for a bad variable or a descriptor that is not a listening TCP socket.
    public static func takeFromEnvironment() throws(SocketActivationError) -> [ListeningSocket] {
        var environment: [String: String] = [:]
        for name in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
            unsetenv(name)
        }
        let fds = try descriptors(environment: environment, processID: getpid())
        var sockets: [ListeningSocket] = []
        for fd in fds {
            do {
                sockets.append(try ListeningSocket.adopt(fd))
            } catch {
                throw .badSocket(error)
            }
        }
        return sockets
    }
}

/// Why the sockets systemd passed cannot be used.
public enum SocketActivationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `LISTEN_PID` is not a process id.
    case badProcessID(String)
    /// `LISTEN_FDS` is not a number.
    case badCount(String)
    /// `LISTEN_FDS` is negative or more than ``SocketActivation/maxDescriptors``.
    case tooMany(Int)
    /// A passed descriptor is not a listening TCP socket.
    case badSocket(ListeningSocketError)

    /// One sentence for the refusal line.
    public var description: String {
        switch self {
        case .badProcessID(let text): "LISTEN_PID is not a process id: '\(text.prefix(40))'"
        case .badCount(let text): "LISTEN_FDS is not a number: '\(text.prefix(40))'"
        case .tooMany(let count):
            "LISTEN_FDS is \(count), outside 0...\(SocketActivation.maxDescriptors)"
        case .badSocket(let error): "a socket passed in LISTEN_FDS cannot be served on: \(error)"
        }
    }
}
