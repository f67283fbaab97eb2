import COpenSSL

/// How long OpenSSL keeps its state: until the process is gone.
public enum OpenSSLLifetime {
    /// Turns off OpenSSL's clean-up at exit. By default OpenSSL frees its locks and tables in an `atexit` handler,
    /// while other threads may still be in it (a pool thread hashing a token, a TLS reload): such a thread then takes
    /// a freed lock and crashes the process as it exits (seen once at shutdown after `SIGTERM`: a pool thread in
    /// `pthread_rwlock_rdlock` on a null lock while another ran exit's handlers; exit code 139 instead of 0). The
    /// memory goes back with the process anyway.
    ///
    /// Call it before anything else uses OpenSSL: the first initialisation decides (`ViewHostCommand.run` does, so
    /// an app's `main` built on it need not).
    public static func keepUntilExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
