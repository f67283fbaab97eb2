import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// SQLite's write-ahead log (`viewhost.sqlite-wal`), watched from outside: which generation it is in (its header
/// changes each time SQLite starts it again after a complete checkpoint), and whether the file in place is still
/// the one the server writes. Deleting or replacing it while the server runs (an operator's mistake) makes SQLite
/// go on writing into a file nobody will ever read again: everything since the last checkpoint would be lost at the
/// next start. The writer asks ``isInPlace`` before each commit and every few seconds.
final class WriteAheadLog: Sendable {
    let path: String
    /// The log this process opened, read for its header; it stays readable however the name is changed.
    private let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64

    /// Opens the log of `database`, which exists (the store has written).
    init?(database: String) {
        path = database + "-wal"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        self.descriptor = descriptor
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    deinit {
        close(descriptor)
    }

    /// Whether the file at ``path`` is still the log the server writes (not deleted, not replaced).
    var isInPlace: Bool {
        var info = stat()
        return stat(path, &info) == 0 && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// The header's checkpoint sequence number and salts (bytes 12 to 23): the same until SQLite starts the log
    /// again; nil while the log is empty.
    var generation: [UInt8]? {
        var header = [UInt8](repeating: 0, count: 12)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 12, 12) }
        return count == 12 ? header : nil
    }
}
