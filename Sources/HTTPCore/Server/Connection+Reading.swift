import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

extension Connection {
    /// Reads what the socket holds. One short `recv` means the socket is drained: with edge-triggered epoll a
    /// new edge reports anything that arrives later, so most requests cost a single read. When the peer hung
    /// up, reading continues to the end so the end of input is seen.
    func readAvailable(untilDrained: Bool = false) {
        if let secure, !isLingering {
            readSecure(secure)
            return
        }
        let buffer = loop.readBuffer
        while !isClosed, !readPaused {
            let count = vh_recv(fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                received(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if count < buffer.count, !untilDrained { return }
            } else if count == 0 {
                peerClosed()
                return
            } else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR: continue
                default:
                    close()
                    return
                }
            }
        }
    }

    /// Handles newly received bytes: parse and answer when free, else buffer (bounded).
    func received(_ chunk: UnsafeRawBufferPointer) {
        if isLingering || isRejecting || closeWhenFlushed { return }  // nothing more will be answered
        timers.receivedBytes(at: loop.now)
        if case .reading = activity, inbound.isEmpty {
            let consumed = processRequests(chunk)
            if consumed < chunk.count, !isClosed, !isLingering, !closeWhenFlushed {
                inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[consumed...]))
            }
        } else {
            inbound.append(contentsOf: chunk)
            if case .reading = activity {
                processInbound()
            } else if inbound.count > maxBufferedInput {
                readPaused = true
            }
        }
        flush()
    }

    /// Parses and answers what `inbound` holds, as far as the connection is free to.
    func processInbound() {
        guard !inbound.isEmpty, case .reading = activity, !closeWhenFlushed else { return }
        let buffer = inbound
        inbound = []
        let consumed = buffer.withUnsafeBytes { processRequests($0) }
        guard !isClosed, !isLingering, !closeWhenFlushed, consumed < buffer.count else { return }
        inbound = consumed == 0 ? buffer : Array(buffer[consumed...])
    }

    /// Inflates a `Content-Encoding: gzip` body (at most `limit` bytes inflated, so a zip bomb costs nothing) and
    /// drops the field; returns the answer instead when that is not possible: `413` over the limit, `400` for a
    /// corrupt stream, `415` with `Accept-Encoding: gzip` for another coding (RFC 9110 §15.5.16).
    private static func decodeBody(of request: inout HTTPRequest, limit: Int) -> HTTPResponse? {
        guard let coding = request.headers[.contentEncoding] else { return nil }
        do {
            request.body = try RequestBodyDecoding.decode(contentEncoding: coding, body: request.body, limit: limit)
            request.headers.remove(.contentEncoding)
            return nil
        } catch {
            switch error {
            case .tooLarge:
                return HTTPError(.contentTooLarge, detail: error.description).response
            case .unsupportedCoding:
                var response = HTTPError(.unsupportedMediaType, detail: error.description).response
                response.headers.add(.acceptEncoding, "gzip")
                return response
            case .corrupt, .zlib:
                return HTTPError(.badRequest, detail: error.description).response
            }
        }
    }

    /// Continues reading after a pause, once the connection is free again and its queued answers are under the
    /// bound.
    func resumeReadingIfPaused() {
        guard readPaused, !isClosed, !outboundIsFull else { return }
        readPaused = false
        readAvailable()
    }

    /// Answers the pipelined requests that waited and reads on, once the client has taken enough of its queued
    /// answers (called after every readiness event, since the client's reading shows as the socket's room).
    func resumeReadingOnceAnswersTaken() {
        guard readPaused, !isClosed, !outboundIsFull else { return }
        switch activity {
        case .reading:
            processInbound()
            flush()
        case .lingering:
            break  // only discarding input now: read it so the client's close is seen
        case .awaitingResponse, .streaming, .closed:
            return  // paused while a response is made: finishing it resumes
        }
        resumeReadingIfPaused()
    }

    /// Parses requests from `buffer` and answers each, in order, until the buffer ends or a response has to
    /// wait; returns how many bytes were consumed.
    private func processRequests(_ buffer: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while case .reading = activity, !closeWhenFlushed, offset < buffer.count {
            if parser.isIdle, outboundIsFull {
                // The client is not reading its answers: send what the socket takes, and unless that brings the
                // queue under the bound, parse nothing more and stop reading (RFC 9112 §9.3.2) until it does.
                flush()
                guard !isClosed else { return buffer.count }
                if outboundIsFull {
                    readPaused = true
                    return offset
                }
            }
            let result: (event: HTTPRequestParser.Event, consumed: Int)
            do {
                result = try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            } catch {
                fail(with: error)
                return buffer.count
            }
            offset += result.consumed
            switch result.event {
            case .needMoreData:
                if result.consumed == 0 { return offset }
            case .headReceived(let expectsContinue):
                timers.receivedHead(at: loop.now)
                // RFC 9110 §10.1.1: only when none of the body has arrived yet.
                if expectsContinue, offset == buffer.count { queueContinue() }
            case .request(let request):
                timers.receivedRequest()
                dispatch(request)
            }
        }
        return offset
    }

    /// Hands a request to the responder and writes or awaits its answer.
    private func dispatch(_ received: HTTPRequest) {
        let server = loop.server
        var request = received
        let clientID = request.headers.withFirstValue(of: .xRequestID) { value in
            RequestIDGenerator.isAcceptable(value) ? String(decoding: value, as: UTF8.self) : nil
        }
        let requestID = (clientID ?? nil) ?? loop.requestIDs.next()
        var context = ResponseContext(
            method: request.method, version: request.version,
            keepAlive: request.keepAlive && !server.isDraining && !inputClosed, requestID: requestID)
        if server.configuration.compression.isEnabled {
            context.coding = ContentCodingNegotiation.preferredCoding(acceptEncoding: request.headers[.acceptEncoding])
        }
        inFlight = context
        if let failure = Self.decodeBody(of: &request, limit: server.configuration.limits.maxBodyBytes) {
            write(failure, for: context)
            return
        }
        let client = server.configuration.trustedProxies.clientAddress(
            peer: peerAddress, headers: request.headers)
        let requestContext = HTTPRequestContext(
            requestID: requestID, remoteAddress: peer, clientAddress: client, serverIsDraining: server.isDraining,
            logger: server.logger)
        let result: HTTPHandlerResult
        do {
            result = try server.responder.respond(to: request, context: requestContext)
        } catch {
            result = .response(server.response(for: error, requestID: requestID))
        }
        switch result {
        case .response(let response):
            write(response, for: context)
        case .later(let start):
            activity = .awaitingResponse
            let bound = LoopBound(self, loop: loop)
            let loop = loop
            let once = OnceAnswer { outcome in
                let response: HTTPResponse
                switch outcome {
                case .success(let made): response = made
                case .failure(let error): response = server.response(for: error, requestID: requestID)
                }
                loop.execute { bound.value.finishDeferred(response) }
            }
            start(once.answer)
        }
    }

    /// Writes a deferred response once its work is done, then carries on with what waited behind it.
    private func finishDeferred(_ response: HTTPResponse) {
        guard !isClosed, case .awaitingResponse = activity, let context = inFlight else { return }
        activity = .reading
        write(response, for: context)
        processInbound()
        flush()
        resumeReadingIfPaused()
        if !isClosed { scheduleTimers() }
    }

    /// The client closed its sending side.
    func peerClosed() {
        inputClosed = true
        switch activity {
        case .lingering:
            close()
        case .reading where inFlight == nil && (outboundSent == outbound.count || !parser.isIdle):
            close()  // nothing in progress, or a request that can never complete
        case .streaming(let stream) where stream.source != nil:
            // A pulled body is open-ended (server-sent events): a client that stopped sending is leaving, and
            // nothing could follow the body anyway. End it now rather than at its next write.
            closeWhenFlushed = true
            finishStream(stream)
        default:
            closeWhenFlushed = true
        }
    }
}
