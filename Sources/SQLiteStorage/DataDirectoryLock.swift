import Foundation
import Synchronization
import ViewModelCore

#if canImport(Glibc)
import Glibc
#endif

/// The one server's claim on a data directory: an exclusive `flock` on `viewhost.lock` in it, held while the store
/// is open (the kernel lets go when the process ends, however it ends). A second server on the same directory (a
/// second unit, two containers on one volume) cannot take it and refuses to start, naming the process that holds
/// it, which the file records.
final class DataDirectoryLock: Sendable {
    /// The lock file's name in the data directory.
    static let fileName = "viewhost.lock"

    /// The lock file's descriptor while the lock is held; -1 once released.
    private let descriptor: Atomic<Int32>

    /// Takes the lock on `directory` (which exists).
    /// - Throws: ``StorageError/inUse(path:reason:)`` when another process holds it;
    ///   ``StorageError/cannotCreate(path:reason:)`` when the file cannot be made.
    init(directory: String) throws(StorageError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.recordedProcess(descriptor)
            close(descriptor)
            guard code == EWOULDBLOCK else { throw .cannotCreate(path: path, reason: String(cString: strerror(code))) }
            throw .inUse(
                path: directory,
                reason: "another viewhost\(holder.map { " (pid \($0))" } ?? "") uses this data directory; "
                    + "stop it first, or give this one its own --data-dir")
        }
        // Whoever is refused next is told which process holds it.
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, text, text.count, 0)
        self.descriptor = Atomic(descriptor)
    }

    deinit {
        release()
    }

    /// Lets go of the directory (the store closed); a second call does nothing.
    func release() {
        let descriptor = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        guard descriptor >= 0 else { return }
        // Unlocked first: a child process spawned a moment ago may still share the descriptor until its exec
        // closes it, and the lock would stay held with it (seen in tests that reopen a store in process).
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Whether a process (a running server) holds the lock on `directory`. Asked without making anything: a
    /// directory without the lock file, or one this process may not open, has no server on it.
    static func isHeld(in directory: String) -> Bool {
        let descriptor = open((directory as NSString).appendingPathComponent(fileName), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(descriptor, LOCK_UN)
        return false
    }

    /// The process id the holder wrote into the file, if it is there.
    private static func recordedProcess(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
