import ViewModelCore

extension ConfigurationKey {
    /// Every key the server itself reads (a feature's settings are its own), in the order of the configuration file.
    public static let server: [ConfigurationKey] = [
        .init(
            path: "host", kind: .string, defaultJSON: "\"127.0.0.1\"",
            summary: "Address to listen on (IPv4, IPv6 or a name)."),
        .init(
            path: "port", kind: .integer, defaultJSON: "8080",
            summary: "TCP port; 0 picks a free one, printed on the readiness line."),
        .init(
            path: "logLevel", kind: .string, defaultJSON: "\"info\"",
            summary: "trace, debug, info, notice, warning, error or critical."),
        .init(
            path: "log.format", kind: .string, defaultJSON: "\"text\"",
            summary:
                "text (one line per entry, key=value metadata) or json (one JSON object per line, for log collectors)."),
        .init(
            path: "log.access", kind: .boolean, defaultJSON: "true",
            summary: "One line per request (method, route, status, bytes, duration, request and session id), at info."),
        .init(
            path: "server.eventLoops", kind: .integer, defaultJSON: "0",
            summary: "Event-loop threads; 0 means one per CPU core."),
        .init(
            path: "server.reusePort", kind: .boolean, defaultJSON: "true",
            summary: "Give each loop its own SO_REUSEPORT listener instead of sharing one."),
        .init(
            path: "server.backlog", kind: .integer, defaultJSON: "1024",
            summary: "Listen backlog (pending connections the kernel queues)."),
        .init(
            path: "server.maxConnections", kind: .integer, defaultJSON: "20000",
            summary: "Open connections past which new ones get 503 and are closed."),
        .init(
            path: "limits.maxRequestLineBytes", kind: .integer, defaultJSON: "8192",
            summary: "Longest request line; longer gets 414."),
        .init(
            path: "limits.maxHeaderBytes", kind: .integer, defaultJSON: "16384",
            summary: "Largest header section; larger gets 431."),
        .init(
            path: "limits.maxHeaderCount", kind: .integer, defaultJSON: "100",
            summary: "Most header fields; more gets 431."),
        .init(
            path: "limits.maxBodyBytes", kind: .integer, defaultJSON: "1048576",
            summary: "Largest request body; larger gets 413 without being read."),
        .init(
            path: "limits.sessionsPerMinutePerClient", kind: .integer, defaultJSON: "600",
            summary:
                "Sessions one client address may create per minute (a token bucket, burst the same); more get 429 with Retry-After. 0: no limit."
        ),
        .init(
            path: "limits.eventsPerSecondPerSession", kind: .integer, defaultJSON: "200",
            summary:
                "Events one session may post per second (a batch counts each event; burst the same); more get 429 with Retry-After. 0: no limit."
        ),
        .init(
            path: "limits.eventsPerSecondPerParticipant", kind: .integer, defaultJSON: "200",
            summary:
                "Events one member of a shared session may post per second, within the session's own rate (which alone bounds the owner); more get 429 with Retry-After. 0: no limit."
        ),
        .init(
            path: "timeouts.headerReadSeconds", kind: .number, defaultJSON: "10",
            summary: "Time from a request's first byte to the end of its head; then 408 (slowloris)."),
        .init(
            path: "timeouts.bodyReadSeconds", kind: .number, defaultJSON: "30",
            summary: "Time from the end of the head to the end of the body; then 408."),
        .init(
            path: "timeouts.idleSeconds", kind: .number, defaultJSON: "60",
            summary: "Keep-alive connections idle this long are closed."),
        .init(
            path: "timeouts.writeSeconds", kind: .number, defaultJSON: "30",
            summary: "Unsent response bytes with no progress this long close the connection."),
        .init(
            path: "timeouts.drainSeconds", kind: .number, defaultJSON: "10",
            summary: "On SIGTERM/SIGINT, time for in-flight requests before connections are cut."),
        .init(
            path: "timeouts.lingeringCloseSeconds", kind: .number, defaultJSON: "2",
            summary: "After closing its side, how long the server discards late client bytes."),
        .init(
            path: "timeouts.handshakeSeconds", kind: .number, defaultJSON: "10",
            summary: "Time a TLS client has to finish its handshake; then the connection is closed."),
        .init(
            path: "tls.certificatePath", kind: .string, defaultJSON: "null",
            summary: "PEM certificate (chain) file; with tls.keyPath the server speaks HTTPS only. SIGHUP reloads both."
        ),
        .init(
            path: "tls.keyPath", kind: .string, defaultJSON: "null",
            summary: "PEM private key file (unencrypted) for tls.certificatePath."),
        .init(
            path: "compression.enabled", kind: .boolean, defaultJSON: "true",
            summary: "gzip responses for clients that accept it (Accept-Encoding), with Vary: Accept-Encoding."),
        .init(
            path: "compression.minimumBytes", kind: .integer, defaultJSON: "1024",
            summary: "Smallest body that is gzipped; smaller ones are sent as they are."),
        .init(
            path: "proxy.trusted", kind: .stringList, defaultJSON: "[]",
            summary:
                "Addresses or CIDR ranges (127.0.0.1, 10.0.0.0/8, fd00::/8) of proxies whose Forwarded or X-Forwarded-For names the client: behind them the per-client limits and the access log use the right-most address they forwarded that is not itself trusted. None by default."
        ),
        .init(
            path: "cors.allowedOrigins", kind: .stringList, defaultJSON: "[]",
            summary: "Origins (scheme://host:port, or *) whose front-ends may call the API; none by default."),
        .init(
            path: "streams.heartbeatSeconds", kind: .number, defaultJSON: "15",
            summary: "An idle event stream gets a comment line this often, so proxies keep it open."),
        .init(
            path: "streams.maxPerSession", kind: .integer, defaultJSON: "8",
            summary: "Open event streams one session may hold; more get 429."),
        .init(
            path: "streams.maxPerParticipant", kind: .integer, defaultJSON: "8",
            summary:
                "Open event streams one member of a shared session may hold, within streams.maxPerSession (which alone bounds the owner); more get 429."
        ),
        .init(
            path: "streams.max", kind: .integer, defaultJSON: "20000",
            summary: "Open event streams in total; more get 503."),
        .init(
            path: "sessions.idleTtlSeconds", kind: .number, defaultJSON: "1800",
            summary: "Sessions unused this long expire (their own token then gets 410)."),
        .init(
            path: "sessions.max", kind: .integer, defaultJSON: "200000",
            summary:
                "Sessions kept in memory: with a durable store the least recently used idle ones leave memory past it (they stay stored and load again when asked for); with the memory store, creating one more answers 503 with Retry-After."
        ),
        .init(
            path: "sessions.logCapacity", kind: .integer, defaultJSON: "256",
            summary: "Entries each session's data-flow log keeps (a ring)."),
        .init(
            path: "sessions.historyVersions", kind: .integer, defaultJSON: "1000",
            summary:
                "How many of each session's latest inputs are kept (with a snapshot every 64 to 256 inputs), so every version they made can be served again: ?version=N, patches, /versions and the journal export. 0 keeps none."
        ),
        .init(
            path: "contacts.maxPerSession", kind: .integer, defaultJSON: "1000",
            summary:
                "Contacts one session may have; redeeming an invitation past it answers 422."
        ),
        .init(
            path: "contacts.maxOpenInvitations", kind: .integer, defaultJSON: "20",
            summary:
                "Open invitations one session may hold (not used up, withdrawn or expired); more answer 429."
        ),
        .init(
            path: "participants.maxPerSession", kind: .integer, defaultJSON: "50",
            summary:
                "Participants one shared session may have besides its owner; joining past it answers 422. A removed participant leaves its place."
        ),
        .init(
            path: "participants.maxOpenInvitations", kind: .integer, defaultJSON: "20",
            summary:
                "Open join invitations one session may hold (not used up, withdrawn or expired); more answer 429."
        ),
        .init(
            path: "deliveries.maxPending", kind: .integer, defaultJSON: "256",
            summary:
                "Deliveries to contacts one session may have waiting for their receivers; a request finding that many, or whose events would leave more, answers 429 and changes nothing."
        ),
        .init(
            path: "deliveries.maxBacklog", kind: .integer, defaultJSON: "1024",
            summary:
                "Delivered events one receiving session takes at once; a delivery finding it full comes back to its sender as not delivered (full)."
        ),
        .init(
            path: "store.kind", kind: .string, defaultJSON: "\"sqlite\"",
            summary:
                "Where sessions are kept: sqlite (durable, the default) or memory (lost on exit; tests and benchmarks)."
        ),
        .init(
            path: "store.dataDir", kind: .string, defaultJSON: "\"data\"",
            summary: "Directory of the SQLite store (made when missing); relative to the working directory."),
        .init(
            path: "store.sync", kind: .string, defaultJSON: "\"full\"",
            summary: "full: what got 202 survives power loss; normal: it survives a process crash (faster)."),
        .init(
            path: "store.maxMegabytes", kind: .integer, defaultJSON: "2048",
            summary:
                "The SQLite store's size (its used pages) past which creating a session answers 503 saying so; existing sessions go on. 0: no limit."
        ),
        .init(
            path: "store.databaseURL", kind: .string, defaultJSON: "null",
            summary:
                "PostgreSQL connection URI (postgres://user:password@host:port/database) for store.kind postgres; never logged with its password."
        ),
        .init(
            path: "simulation.speed", kind: .number, defaultJSON: "1",
            summary: "Divides every simulated delay of the chat (0.5 s loads, 1.5 s sends, bot replies)."),
        .init(
            path: "simulation.seed", kind: .integer, defaultJSON: "null",
            summary: "Seed for repeatable bot choices; null draws a random seed per session."),
        .init(
            path: "cluster.nodeId", kind: .string, defaultJSON: "null",
            summary:
                "This node's name in session leases and logs (store.kind postgres); null means host name and process id."
        ),
        .init(
            path: "cluster.internalAddress", kind: .string, defaultJSON: "null",
            summary:
                "HOST:PORT where this node takes requests the cluster's other nodes forward to it (store.kind postgres), announced to them in the database; keep it on a private network. With it, a request for a session another live node owns goes to that node instead of moving the session. Needs cluster.secret."
        ),
        .init(
            path: "cluster.secret", kind: .string, defaultJSON: "null",
            summary:
                "The secret all nodes of a cluster share (at least 16 characters), carried by every forwarded request; the internal listener refuses requests without it, the public one any request that carries ViewHost-Hop. Set it as VIEWHOST_CLUSTER_SECRET, never in a file others read; never logged."
        ),
    ]

    /// The server's key at `path`, if there is one.
    public static func named(_ path: String) -> ConfigurationKey? {
        server.first { $0.path == path }
    }
}
