#if canImport(Glibc)
import Glibc
#endif

/// An incremental HTTP/1.1 request parser (RFC 9112): request line, then header fields, then the body by
/// `Content-Length` or chunked framing.
///
/// The caller passes every byte it holds that the parser has not consumed yet, from the first unconsumed one;
/// the parser says how many it consumed. While a head is incomplete it consumes nothing (so the caller keeps the
/// bytes) and remembers how far it scanned, so a client that sends one byte at a time costs linear work.
/// Everything a request-smuggling attack needs (conflicting lengths, CL with TE, obs-fold, bare LF) is refused.
package struct HTTPRequestParser {
    /// What a call to ``parse(_:)`` produced.
    package enum Event {
        /// More bytes are needed.
        case needMoreData
        /// The head is complete and a body follows; `expectsContinue` when the client waits for `100 Continue`.
        case headReceived(expectsContinue: Bool)
        /// A whole request.
        case request(HTTPRequest)
    }

    private enum State {
        case head(HeadScan)
        case fixedBody(HTTPRequest, remaining: Int)
        case chunkedBody(HTTPRequest, ChunkedBodyDecoder)
    }

    /// How far an incomplete head was scanned, so the next call resumes there.
    struct HeadScan {
        var scanned = 0
        var lineStart = 0
        var requestLineEnd: Int?
        var fieldCount = 0
    }

    /// The bounds the parser enforces: the request line, the header section and its field count, the body.
    package let limits: HTTPLimits
    private var state = State.head(HeadScan())

    /// Creates a parser that enforces `limits`.
    package init(limits: HTTPLimits) {
        self.limits = limits
    }

    /// Whether no request is in progress: nothing of a next request has been seen.
    package var isIdle: Bool {
        if case .head(let scan) = state { return scan.scanned == 0 }
        return false
    }

    /// Whether the head of the current request is complete and its body is being read.
    package var isReadingBody: Bool {
        if case .head = state { return false }
        return true
    }

    /// Parses from the start of `buffer`.
    /// - Parameter buffer: All unconsumed bytes, starting with the first one not consumed before.
    /// - Returns: What was found, and how many bytes of `buffer` were consumed.
    /// - Throws: `HTTPParserError` for a request that must be refused; the connection is then unusable.
    package mutating func parse(_ buffer: UnsafeRawBufferPointer) throws(HTTPParserError) -> (
        event: Event, consumed: Int
    ) {
        switch state {
        case .head(let scan):
            return try parseHead(buffer, scan: scan)
        case .fixedBody(var request, let remaining):
            state = .head(HeadScan())  // drop the reference so appending to the body does not copy it
            let count = min(remaining, buffer.count)
            request.body.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if count == remaining { return (.request(request), count) }
            state = .fixedBody(request, remaining: remaining - count)
            return (.needMoreData, count)
        case .chunkedBody(var request, var decoder):
            state = .head(HeadScan())
            let (consumed, finished) = try decoder.decode(buffer, into: &request.body, limits: limits)
            if finished {
                request.trailers = decoder.trailers
                return (.request(request), consumed)
            }
            state = .chunkedBody(request, decoder)
            return (.needMoreData, consumed)
        }
    }

    // MARK: - Head

    private mutating func parseHead(
        _ buffer: UnsafeRawBufferPointer, scan: HeadScan
    ) throws(HTTPParserError) -> (event: Event, consumed: Int) {
        // RFC 9112 §2.2: a server SHOULD ignore at least one empty line received before the request line.
        // Checked until the request line ends, not only on a fresh scan: a read that ended after the CR of
        // such a line left a scan of one byte, and the line is still empty once its LF arrives.
        if scan.requestLineEnd == nil {
            var skipped = 0
            while skipped + 1 < buffer.count, buffer[skipped] == 0x0D, buffer[skipped + 1] == 0x0A { skipped += 2 }
            if skipped > 0 {
                state = .head(HeadScan())
                return (.needMoreData, skipped)
            }
        }
        var scan = scan
        guard let headEnd = try findHeadEnd(buffer, scan: &scan) else {
            state = .head(scan)
            return (.needMoreData, 0)
        }
        state = .head(HeadScan())
        let requestLineEnd = scan.requestLineEnd ?? 0
        let request = try HeadParser.parse(
            UnsafeRawBufferPointer(rebasing: buffer[0..<(headEnd - 2)]), requestLineEnd: requestLineEnd)
        let framing = request.framing
        switch framing.body {
        case .none:
            return (.request(request.request), headEnd)
        case .length(let length):
            guard length <= limits.maxBodyBytes else { throw .bodyTooLarge }
            var full = request.request
            let available = buffer.count - headEnd
            if available >= length {
                full.body = Array(UnsafeRawBufferPointer(rebasing: buffer[headEnd..<(headEnd + length)]))
                return (.request(full), headEnd + length)
            }
            full.body.reserveCapacity(length)
            state = .fixedBody(full, remaining: length)
            return (.headReceived(expectsContinue: framing.expectsContinue), headEnd)
        case .chunked:
            state = .chunkedBody(request.request, ChunkedBodyDecoder())
            return (.headReceived(expectsContinue: framing.expectsContinue), headEnd)
        }
    }

    /// Finds the end of the head (just past the empty line), checking line endings and size limits on the way.
    private func findHeadEnd(
        _ buffer: UnsafeRawBufferPointer, scan: inout HeadScan
    ) throws(HTTPParserError) -> Int? {
        var index = scan.scanned
        while index < buffer.count {
            guard let newline = Self.firstLineFeed(in: buffer, from: index) else {
                index = buffer.count
                break
            }
            guard newline > 0, buffer[newline - 1] == 0x0D else { throw .invalidLineEnding }
            let contentEnd = newline - 1
            if scan.requestLineEnd == nil {
                guard contentEnd <= limits.maxRequestLineBytes else { throw .requestLineTooLong }
                scan.requestLineEnd = contentEnd
            } else if contentEnd == scan.lineStart {
                return newline + 1
            } else {
                scan.fieldCount += 1
                guard scan.fieldCount <= limits.maxHeaderCount else { throw .tooManyHeaderFields }
            }
            scan.lineStart = newline + 1
            index = newline + 1
            try checkSizes(scan: scan, scannedTo: index)
        }
        scan.scanned = index
        // A lone CR may be the start of the empty line that ends the head, which the limit does not count;
        // counting it would refuse a head at the limit only when its last LF arrives in a later read.
        let pendingEmptyLine = index == scan.lineStart + 1 && buffer[scan.lineStart] == 0x0D
        try checkSizes(scan: scan, scannedTo: pendingEmptyLine ? scan.lineStart : index)
        return nil
    }

    private func checkSizes(scan: HeadScan, scannedTo index: Int) throws(HTTPParserError) {
        if let requestLineEnd = scan.requestLineEnd {
            // Header bytes so far: everything after the request line's CRLF.
            guard index - (requestLineEnd + 2) <= limits.maxHeaderBytes else { throw .headerSectionTooLarge }
        } else {
            guard index <= limits.maxRequestLineBytes + 1 else { throw .requestLineTooLong }
        }
    }

    private static func firstLineFeed(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, 0x0A, buffer.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
