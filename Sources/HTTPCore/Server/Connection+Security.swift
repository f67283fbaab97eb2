import CSystemShim
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The TLS side of a connection: the handshake, and reading and writing through its ``SecureChannel``.
/// The channel is touched only here, on the connection's loop.
extension Connection {
    /// The first byte of every TLS record carrying a handshake (RFC 8446 §5.1, content type 22).
    private static let handshakeRecord: UInt8 = 0x16

    /// Advances the handshake; once it is done, reads whatever request bytes came with it.
    func advanceHandshake() {
        guard let secure, isHandshaking else { return }
        if !checkedFirstByte {
            var byte: UInt8 = 0
            let count = recv(fd, &byte, 1, Int32(MSG_PEEK))
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            guard count == 1 else {
                close()
                return
            }
            guard byte == Self.handshakeRecord else {
                answerPlainHTTP(startingWith: byte)
                return
            }
            checkedFirstByte = true
        }
        switch secure.handshake() {
        case .done:
            isHandshaking = false
            timers.finishedHandshake(at: loop.now)
            if isRejecting {
                answerOverLimit()  // over the connection limit: the 503, readable now that the session is up
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

    /// Plain HTTP sent to the TLS port: a request line starts with a token character, so answer `400` in
    /// plain text, which the client can read; anything else is closed without an answer.
    private func answerPlainHTTP(startingWith byte: UInt8) {
        secure = nil
        isHandshaking = false
        timers.finishedHandshake(at: loop.now)
        guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) else {
            close()
            return
        }
        fail(with: HTTPError(.badRequest, detail: "This port speaks HTTPS; send the request over TLS (https://)."))
    }

    /// Reads and handles decrypted bytes until the channel has none (TLS may hold several records after one
    /// socket read, so a short read does not mean the socket is drained).
    func readSecure(_ secure: any SecureChannel) {
        secureReadWantsWrite = false
        let buffer = loop.readBuffer
        while !isClosed, !readPaused, !isLingering {
            switch secure.read(into: buffer) {
            case .done(let count):
                received(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .wantRead:
                return
            case .wantWrite:
                secureReadWantsWrite = true
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
        secureWriteWantsRead = false
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
                secureWriteWantsRead = true
                return true
            case .closed, .failed:
                close()  // the client is gone, or the session broke: nothing more can be sent
                return false
            }
        }
        return true
    }
}
