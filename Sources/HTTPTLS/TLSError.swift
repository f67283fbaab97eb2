/// Why TLS could not be set up. Each case names the file at fault and carries the drained OpenSSL error queue,
/// so the one-line message says what to fix.
public enum TLSError: Error, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case unreadableFile(path: String, reason: String)
    /// The certificate file holds no usable PEM certificate (chain).
    case invalidCertificate(path: String, reason: String)
    /// The key file holds no usable PEM private key.
    case invalidKey(path: String, reason: String)
    /// The key does not belong to the certificate.
    case keyMismatch(certificatePath: String, keyPath: String, reason: String)
    /// OpenSSL refused a setting (out of memory, or a build without what we ask for).
    case openSSL(String)

    /// One line for the log and the exit message, naming the file and OpenSSL's reason.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .invalidCertificate(let path, let reason): "no usable PEM certificate in \(path): \(reason)"
        case .invalidKey(let path, let reason): "no usable PEM private key in \(path): \(reason)"
        case .keyMismatch(let certificate, let key, let reason):
            "the key in \(key) does not match the certificate in \(certificate): \(reason)"
        case .openSSL(let reason): "OpenSSL: \(reason)"
        }
    }

    /// The sysexits code for a process that cannot start because of this: 66 (EX_NOINPUT) for a missing or
    /// unreadable file, 78 (EX_CONFIG) for contents that do not work.
    public var exitCode: Int32 {
        switch self {
        case .unreadableFile: 66
        case .invalidCertificate, .invalidKey, .keyMismatch: 78
        case .openSSL: 70
        }
    }
}
