import CSystemShim
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The TLS side of a connection: the handshake, and reading and writing through its ``SecureChannel``.
/// The channel is touched only here, on the connection's loop.
extension Connection {
    /// Advances the handshake; once it is done, reads whatever request bytes came with it.
    func advanceHandshake() {
        guard let secure, case .handshaking(let checkedFirstByte) = machine.state else { return }
        if !checkedFirstByte {
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, Int32(MSG_PEEK))
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            guard count == 1 else {
                close()
                return
            }
            switch machine.receivedFirstByte(byte) {
            case .handshake:
                break
            case .answerPlainHTTP:
                answerPlainHTTP()
                return
            default:
                close()
                return
            }
        }
        switch secure.handshake() {
        case .done:
            timers.finishedHandshake(at: loop.now)
            switch machine.finishedHandshake() {
            case .read:
                break
            case .answerOverLimit:
                answerOverLimit()  // over the connection limit: the 503, readable now that the session is up
                return
            default:
                return
            }
            readAvailable()  // in TLS 1.3 the first request often arrives with the client's Finished
            if !isClosed { flush() }
        case .wantRead, .wantWrite:
            break
        case .closed:
            close()
        case .failed(let reason):
            loop.server.logger.info("TLS handshake failed", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
            close()
        }
    }

    /// Plain HTTP sent to the TLS port (a request line starts with a token character): answer `400` in plain
    /// text, which the client can read.
    private func answerPlainHTTP() {
        secure = nil
        timers.finishedHandshake(at: loop.now)
        fail(with: HTTPError(.badRequest, detail: "This port speaks HTTPS; send the request over TLS (https://)."))
    }

    /// Reads and handles decrypted bytes until the channel has none (TLS may hold several records after one
    /// socket read, so a short read does not mean the socket is drained).
    func readSecure(_ secure: any SecureChannel) {
        machine.tlsRead(wantsWritable: false)
        let buffer = loop.readBuffer
        while !isClosed, !machine.readingIsPaused, !machine.isLingering {
            switch secure.read(into: buffer) {
            case .done(let count):
                received(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .wantRead:
                return
            case .wantWrite:
                machine.tlsRead(wantsWritable: true)
                return
            case .closed:
                peerClosed()
                return
            case .failed(let reason):
                loop.server.logger.debug("TLS read failed", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
                close()
                return
            }
        }
    }

    /// Sends queued bytes through the channel as far as it takes them; false once the connection closed.
    func sendSecure(_ secure: any SecureChannel) -> Bool {
        machine.tlsWrite(wantsReadable: false)
        while outboundSent < outbound.count {
            let result = outbound.withUnsafeBytes { bytes in
                secure.write(UnsafeRawBufferPointer(rebasing: bytes[outboundSent...]))
            }
            switch result {
            case .done(let count):
                outboundSent += count
            case .wantWrite:
                return true
            case .wantRead:
                machine.tlsWrite(wantsReadable: true)
                return true
            case .closed, .failed:
                close()  // the client is gone, or the session broke: nothing more can be sent
                return false
            }
        }
        return true
    }
}
