import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

extension Connection {
    /// Reads what the socket holds. One short `recv` means the socket is drained: with edge-triggered epoll a
    /// new edge reports anything that arrives later, so most requests cost a single read. When the peer hung
    /// up, reading continues to the end so the end of input is seen.
    func readAvailable(untilDrained: Bool = false) {
        if let secure, !machine.isLingering {
            readSecure(secure)
            return
        }
        let buffer = loop.readBuffer
        while !isClosed, !machine.readingIsPaused {
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
        switch machine.received(buffered: inbound.count + chunk.count) {
        case .parse:
            timers.receivedBytes(at: loop.now)
            if inbound.isEmpty {
                let consumed = processRequests(chunk)
                if consumed < chunk.count, machine.keepsInput {
                    inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[consumed...]))
                }
            } else {
                inbound.append(contentsOf: chunk)
                processInbound()
            }
        case .buffer:
            timers.receivedBytes(at: loop.now)
            inbound.append(contentsOf: chunk)
        default:
            return  // nothing more will be answered
        }
        flush()
    }

    /// Parses and answers what `inbound` holds, as far as the connection is free to.
    func processInbound() {
        guard !inbound.isEmpty, machine.parsesRequests else { return }
        let buffer = inbound
        inbound = []
        let consumed = buffer.withUnsafeBytes { processRequests($0) }
        guard machine.keepsInput, consumed < buffer.count else { return }
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
        if machine.resumeReading(unsent: unsent) { readAvailable() }
    }

    /// Answers the pipelined requests that waited and reads on, once the client has taken enough of its queued
    /// answers (called after every readiness event, since the client's reading shows as the socket's room).
    func resumeReadingOnceAnswersTaken() {
        // Paused while a response is made, finishing it resumes reading instead.
        guard case .parseBuffered = machine.answersTaken(unsent: unsent) else { return }
        processInbound()
        flush()
        resumeReadingIfPaused()
    }

    /// Parses requests from `buffer` and answers each, in order, until the buffer ends or a response has to
    /// wait; returns how many bytes were consumed.
    private func processRequests(_ buffer: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while machine.parsesRequests, offset < buffer.count {
            if parser.isIdle, machine.answersOverBound(unsent: unsent) {
                // The client is not reading its answers: send what the socket takes, and unless that brings the
                // queue under the bound, parse nothing more and stop reading (RFC 9112 §9.3.2) until it does.
                flush()
                guard !isClosed else { return buffer.count }
                if machine.pauseIfAnswersQueued(unsent: unsent) { return offset }
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
        // Requests are parsed only while the client's input is open (its end closes or ends the parsing).
        var context = ResponseContext(
            method: request.method, version: request.version, keepAlive: request.keepAlive && !server.isDraining,
            requestID: requestID)
        if server.configuration.compression.isEnabled {
            context.coding = ContentCodingNegotiation.preferredCoding(acceptEncoding: request.headers[.acceptEncoding])
        }
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
            guard case .none = machine.awaitAnswer() else {
                close()  // no request is parsed while another is answered: a bug, but nothing well-framed follows
                return
            }
            let bound = LoopBound(self, loop: loop)
            let loop = loop
            let context = context  // the answer carries its request's context back to the loop
            let once = OnceAnswer { outcome in
                let response: HTTPResponse
                switch outcome {
                case .success(let made): response = made
                case .failure(let error): response = server.response(for: error, requestID: context.requestID)
                }
                loop.execute { bound.value.finishDeferred(response, for: context) }
            }
            start(once.answer)
        }
    }

    /// Writes a deferred response to the request described by `context` once its work is done, then carries on
    /// with what waited behind it.
    private func finishDeferred(_ response: HTTPResponse, for context: ResponseContext) {
        guard machine.answerArrived() else { return }  // closed meanwhile
        write(response, for: context)
        processInbound()
        flush()
        resumeReadingIfPaused()
        if !isClosed { scheduleTimers() }
    }

    /// The client closed its sending side.
    func peerClosed() {
        switch machine.peerClosed(unsent: outboundSent < outbound.count, midRequest: !parser.isIdle) {
        case .close: close()
        case .finishStream: if let stream { finishStream(stream) }
        default: break
        }
    }
}
