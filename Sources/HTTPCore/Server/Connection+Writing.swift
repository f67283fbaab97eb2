import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

extension Connection {
    /// Unsent bytes of a stream above which its writer waits.
    static let streamLowWater = 64 * 1024

    /// Queues the response to the request described by `context`, then moves on: to a stream, the next
    /// request, or closing.
    func write(_ original: HTTPResponse, for context: ResponseContext) {
        var response = original
        let deflater = applyCompression(to: &response, for: context)
        takeSharedOutbound()
        var keepAlive = context.keepAlive && machine.keepsAlive && !loop.server.isDraining
        let isHead = context.method == .head
        let allowsContent = response.status.allowsContent
        var framing = HTTPResponseWriter.Framing.none
        var stream: HTTPResponseBody?
        switch response.body {
        case .empty:
            if allowsContent { framing = .length(0) }
        case .bytes(let bytes):
            if allowsContent { framing = .length(bytes.count) }
        case .stream, .source:
            guard allowsContent else { break }
            if context.version == .http1_0 {
                framing = .closeDelimited
                keepAlive = false
            } else {
                framing = .chunked
            }
            if !isHead { stream = response.body }
        }
        loop.date.update()
        HTTPResponseWriter.writeHead(
            status: response.status, headers: response.headers, framing: framing, keepAlive: keepAlive,
            version: context.version, date: loop.date.bytes, requestID: context.requestID, into: &outbound)
        if !isHead, allowsContent, case .bytes(let bytes) = response.body {
            outbound.append(contentsOf: bytes)
        }
        if case .stream(let body) = stream {
            startStream(body, chunked: framing == .chunked, keepAlive: keepAlive, deflater: deflater)
        } else if case .source(let source) = stream {
            startSource(source, chunked: framing == .chunked, keepAlive: keepAlive, deflater: deflater)
        } else {
            finishResponse(keepAlive: keepAlive)
        }
    }

    /// gzips the response when the settings, the request's `Accept-Encoding` and the response allow it (see
    /// ``ResponseCompression``); a response whose coding could depend on `Accept-Encoding` gets `Vary` either way.
    /// A `.bytes` body is replaced by its gzip (the app's cached bytes when it has them); for a stream, the
    /// deflater that its writes go through is returned. A gzipped response's entity tag becomes weak (RFC 9110
    /// §8.8.3: the coded bytes differ), which `If-None-Match`'s weak comparison still matches.
    private func applyCompression(to response: inout HTTPResponse, for context: ResponseContext) -> GzipDeflater? {
        let settings = loop.server.configuration.compression
        guard settings.isEnabled else { return nil }
        let headers = response.headers
        // Would a GET that accepts gzip get it? Then the coding depends on Accept-Encoding, whatever this client
        // sent, and the response says so with Vary. A 304 has no content to code, but repeats the Vary of the 200
        // it validates, judged on the representation it stands for.
        let isNotModified = response.status.code == 304
        let varies: Bool
        if isNotModified {
            guard let representation = response.notModifiedRepresentation else { return nil }
            varies = ResponseCompression.shouldCompress(
                status: .ok, hasContentEncoding: headers.contains(.contentEncoding),
                contentLength: representation.length, threshold: settings.minimumBytes,
                isCompressibleType: ResponseCompression.isCompressible(contentType: representation.contentType))
        } else {
            varies = ResponseCompression.shouldCompress(
                status: response.status, hasContentEncoding: headers.contains(.contentEncoding),
                contentLength: response.body.knownLength, threshold: settings.minimumBytes,
                isCompressibleType: headers.withFirstValue(of: .contentType) {
                    ResponseCompression.isCompressible(contentType: $0)
                } ?? false)
        }
        guard varies else { return nil }
        if !headers.anyValue(of: .vary, containsIgnoringCase: "accept-encoding") {
            response.headers.add(.vary, "Accept-Encoding")
        }
        guard !isNotModified else { return nil }
        // The rest of the rules hold already; what is left is this request's coding and method.
        guard context.coding == .gzip, context.method != .head else { return nil }
        var deflater: GzipDeflater?
        switch response.body {
        case .bytes(let bytes):
            response.body = .bytes(response.precompressedGzip?() ?? Gzip.compress(bytes))
        case .stream, .source:
            guard let made = try? GzipDeflater() else { return nil }  // zlib out of memory: send it plain
            deflater = made
        case .empty:
            return nil
        }
        response.headers.add(.contentEncoding, "gzip")
        if let tag = response.headers[.etag], !tag.hasPrefix("W/") { response.headers.set(.etag, "W/" + tag) }
        return deflater
    }

    /// Sends what is queued, as far as the socket takes it.
    func flush() {
        guard !isClosed, outboundSent < outbound.count else {
            if !isClosed { outboundDrained() }
            return
        }
        let before = outboundSent
        if let secure {
            guard !machine.isHandshaking, sendSecure(secure) else { return }
        } else {
            while outboundSent < outbound.count {
                let count = outbound.withUnsafeBytes { bytes in
                    vh_send(fd, bytes.baseAddress! + outboundSent, bytes.count - outboundSent)
                }
                if count > 0 {
                    outboundSent += count
                } else if count < 0, errno == EINTR {
                    continue
                } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    break
                } else {
                    close()  // EPIPE, ECONNRESET: the client is gone
                    return
                }
            }
        }
        if outboundSent == outbound.count {
            outboundDrained()
            return
        }
        let now = loop.now
        if outboundSent > before {
            timers.writeProgressed(at: now, drained: false)
        } else {
            timers.writeStalled(at: now)
        }
        if outboundIsShared {
            // The loop's buffer stays with this connection until it drains; the loop will grow a new one.
            outboundIsShared = false
            loop.sharedOutboundLent = false
        }
        if outboundSent >= 64 * 1024 {
            outbound.removeFirst(outboundSent)
            outboundSent = 0
        }
        resumeStreamWriterIfBelowLowWater()
    }

    /// Ends a response: the next request may be read, or the connection closes once flushed.
    func finishResponse(keepAlive: Bool) {
        if machine.finishedResponse(keepAlive: keepAlive) {
            timers.finishedResponse(at: loop.now, pipelined: !inbound.isEmpty || !parser.isIdle)
        } else {
            inbound = []
        }
    }

    /// Queues `100 Continue` (RFC 9110 §15.2.1).
    func queueContinue() {
        takeSharedOutbound()
        outbound.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
    }

    /// Shuts our sending side and discards input until the client closes, so it reads our last response
    /// instead of a reset caused by its unread request bytes; `thenClose` when it closed already.
    private func startLingeringClose(thenClose: Bool) {
        inbound = []
        secure?.shutdown()
        shutdown(fd, Int32(SHUT_WR))
        timers.startedLingering(at: loop.now)
        if thenClose { close() }
    }

    private func outboundDrained() {
        if !outbound.isEmpty || outboundSent > 0 {
            outbound.removeAll(keepingCapacity: true)
            outboundSent = 0
        }
        returnSharedOutbound()
        timers.writeProgressed(at: loop.now, drained: true)
        resumeStreamWriterIfBelowLowWater()
        if case .linger(let thenClose) = machine.flushed() { startLingeringClose(thenClose: thenClose) }
    }

    /// Borrows the loop's output buffer when this connection has nothing queued, so idle connections own none.
    func takeSharedOutbound() {
        guard outbound.isEmpty, !outboundIsShared, !loop.sharedOutboundLent else { return }
        swap(&outbound, &loop.sharedOutbound)
        outboundSent = 0
        loop.sharedOutboundLent = true
        outboundIsShared = true
    }

    func returnSharedOutbound() {
        guard outboundIsShared else {
            if outbound.isEmpty, outbound.capacity > 0 { outbound = [] }
            return
        }
        outbound.removeAll(keepingCapacity: true)
        swap(&outbound, &loop.sharedOutbound)
        outboundSent = 0
        loop.sharedOutboundLent = false
        outboundIsShared = false
    }
}

/// Serialises response heads (RFC 9112 §4, §6).
enum HTTPResponseWriter {
    enum Framing: Equatable {
        /// No content and no framing field (1xx, 204, 304).
        case none
        case length(Int)
        case chunked
        /// Content runs until the connection closes (HTTP/1.0 clients of a stream).
        case closeDelimited
    }

    /// Appends the status line and header section. The server always answers `HTTP/1.1` (RFC 9110 §6.2).
    static func writeHead(
        status: HTTPStatus, headers: HTTPHeaders, framing: Framing, keepAlive: Bool, version: HTTPVersion,
        date: [UInt8], requestID: String, into output: inout [UInt8]
    ) {
        output.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status.code, to: &output)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: status.reasonPhrase.utf8)
        output.append(contentsOf: "\r\nDate: ".utf8)
        output.append(contentsOf: date)
        output.append(contentsOf: "\r\nX-Request-Id: ".utf8)
        output.append(contentsOf: requestID.utf8)
        switch framing {
        case .length(let length):
            output.append(contentsOf: "\r\nContent-Length: ".utf8)
            appendDecimal(length, to: &output)
        case .chunked:
            output.append(contentsOf: "\r\nTransfer-Encoding: chunked".utf8)
        case .none, .closeDelimited:
            break
        }
        if !keepAlive {
            output.append(contentsOf: "\r\nConnection: close".utf8)
        } else if version == .http1_0 {
            output.append(contentsOf: "\r\nConnection: keep-alive".utf8)
        }
        output.append(contentsOf: "\r\n".utf8)
        headers.writeResponseFields(into: &output)
        output.append(contentsOf: "\r\n".utf8)
    }

    /// Appends one chunk: size in hex, CRLF, data, CRLF (RFC 9112 §7.1).
    static func appendChunk(_ bytes: [UInt8], to output: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        var shift = (Int.bitWidth - bytes.count.leadingZeroBitCount + 3) / 4 * 4 - 4
        repeat {
            output.append(hex.utf8Start[(bytes.count >> max(shift, 0)) & 0xF])
            shift -= 4
        } while shift >= 0
        output.append(contentsOf: "\r\n".utf8)
        output.append(contentsOf: bytes)
        output.append(contentsOf: "\r\n".utf8)
    }

    static let lastChunk = Array("0\r\n\r\n".utf8)

    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        guard value > 0 else {
            output.append(UInt8(ascii: "0"))
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { output.append(buffer[index]) }
        }
    }
}
