import CPostgreSQL
import Foundation

/// One libpq connection: parameterized queries (`PQexecParams`, text format), errors as ``PostgresError``, and
/// `LISTEN`/`NOTIFY` through the connection's socket.
///
/// Not thread-safe (`@unchecked Sendable` only so it can be handed between threads: one thread uses it at a time),
/// and every call blocks for a round trip: an owner keeps it on one serial queue or thread of its
/// own (never an HTTP event loop). After a connection failure ``reconnect()`` opens it again.
///
/// ```swift
/// let connection = try PostgresConnection(url: "postgres://viewhost@127.0.0.1:5432/viewhost")
/// let rows = try connection.query("SELECT id FROM sessions WHERE id = $1", ["abc"])
/// ```
final class PostgresConnection: @unchecked Sendable {
    private let url: String
    private var handle: OpaquePointer?
    /// Statements prepared on this connection (by name); a new connection starts with none.
    private var prepared: Set<String> = []

    /// Opens a connection to `url` (a libpq connection URI or `key=value` string).
    /// - Throws: ``PostgresError/connection(_:)`` when it cannot be opened.
    init(url: String) throws(PostgresError) {
        self.url = url
        try reconnect()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Closes the connection (if open) and opens a new one.
    func reconnect() throws(PostgresError) {
        if let handle { PQfinish(handle) }
        handle = nil
        prepared = []
        // A dead peer is noticed within keepalive's bound (10 s idle, 2 s × 3 probes) rather than the system's hours.
        let options =
            url.contains("://")
            ? url + (url.contains("?") ? "&" : "?")
                + "keepalives_idle=10&keepalives_interval=2&keepalives_count=3&connect_timeout=5"
            : url + " keepalives_idle=10 keepalives_interval=2 keepalives_count=3 connect_timeout=5"
        let connection = PQconnectdb(options)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { Self.message(PQerrorMessage($0)) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            throw .connection(message)
        }
        handle = connection
        // Keep the server's notices (such as "relation already exists, skipping") off stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    /// Whether the connection is open and usable.
    var isOpen: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Runs `sql` with `parameters` (`$1`, `$2`, …; nil is SQL NULL), text in and out.
    /// - Returns: The rows (each value as text, nil for NULL) and how many rows the command touched.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresResult {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { throw .connection("not connected") }
        let result = Self.withCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try Self.read(result, handle: handle)
    }

    /// Runs `sql` as the statement prepared under `name` (prepared on first use on this connection: the server
    /// parses and plans it once, not on every write).
    @discardableResult
    func query(prepared name: String, _ sql: String, _ parameters: [String?]) throws(PostgresError) -> PostgresResult {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { throw .connection("not connected") }
        if !prepared.contains(name) {
            _ = try Self.read(PQprepare(handle, name, sql, Int32(parameters.count), nil), handle: handle)
            prepared.insert(name)
        }
        let result = Self.withCStrings(parameters) { values in
            PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        return try Self.read(result, handle: handle)
    }

    /// The rows of `result` (each value as text, nil for NULL) and how many rows it touched, or its error.
    private static func read(_ result: OpaquePointer?, handle: OpaquePointer) throws(PostgresError) -> PostgresResult {
        guard let result else { throw .connection(Self.message(PQerrorMessage(handle))) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            var rows: [[String?]] = []
            let count = PQntuples(result)
            let fields = PQnfields(result)
            rows.reserveCapacity(Int(count))
            for row in 0..<count {
                var values: [String?] = []
                values.reserveCapacity(Int(fields))
                for field in 0..<fields {
                    values.append(
                        PQgetisnull(result, row, field) == 1 ? nil : String(cString: PQgetvalue(result, row, field)))
                }
                rows.append(values)
            }
            let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
            return PostgresResult(rows: rows, affected: affected)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = Self.message(PQresultErrorMessage(result))
            if PQstatus(handle) != CONNECTION_OK { throw .connection(message) }
            throw .server(state: state, message: message)
        }
    }

    /// Runs `sql`, which may hold several statements and takes no parameters (migrations).
    func execute(_ sql: String) throws(PostgresError) {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { throw .connection("not connected") }
        guard let result = PQexec(handle, sql) else { throw .connection(Self.message(PQerrorMessage(handle))) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            throw .server(state: state, message: Self.message(PQresultErrorMessage(result)))
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try query("BEGIN")
        do {
            let value = try body()
            try query("COMMIT")
            return value
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }

    /// The connection's socket, for waiting on notifications (`poll`); -1 when closed.
    var socket: Int32 { handle.map { PQsocket($0) } ?? -1 }

    /// Reads what arrived on the socket and returns the notifications received (`LISTEN`'s channel and payload).
    /// - Throws: ``PostgresError/connection(_:)`` when the connection broke.
    func notifications() throws(PostgresError) -> [(channel: String, payload: String)] {
        guard let handle else { throw .connection("not connected") }
        guard PQconsumeInput(handle) == 1 else { throw .connection(Self.message(PQerrorMessage(handle))) }
        var received: [(String, String)] = []
        while let notify = PQnotifies(handle) {
            received.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return received
    }

    /// Escapes `identifier` for SQL (`LISTEN` takes no parameters).
    static func quoted(identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\n", with: "; ")
    }

    private static func withCStrings<R>(
        _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R
    ) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
