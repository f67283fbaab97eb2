import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs of its own for one test: a disk that really fills up (a store's writes fail with "database or disk
/// is full", as on a full volume), unmounted by ``unmount()``. Mounting needs root (CI and `scripts/test.sh` run
/// as root here); ``isAvailable`` says whether this process may.
public final class TmpfsMount: Sendable {
    /// Where it is mounted (a new directory under the temporary directory).
    public let path: String

    /// Whether this process can mount one (it runs as root).
    public static var isAvailable: Bool { getuid() == 0 }

    /// Mounts a tmpfs of `kilobytes` on a new directory.
    public init(kilobytes: Int) async throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try await ServerProcess.run(
            executable: "mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw MountError(output: mounted.stderr)
        }
    }

    /// Mounts a tmpfs of `kilobytes`, runs `body` with it, and unmounts it, also when `body` throws.
    public static func with(kilobytes: Int, _ body: (TmpfsMount) async throws -> Void) async throws {
        let disk = try await TmpfsMount(kilobytes: kilobytes)
        do {
            try await body(disk)
        } catch {
            await disk.unmount()
            throw error
        }
        await disk.unmount()
    }

    /// Fills the file system but `leaving` bytes with a file named `name`, which ``free(_:)`` deletes again.
    public func fill(leaving bytes: Int, name: String = "filler") throws {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { throw MountError(output: "statvfs \(path): errno \(errno)") }
        let available = Int(stats.f_bavail) * Int(stats.f_frsize)
        let size = max(0, available - bytes)
        try Data(count: size).write(to: URL(fileURLWithPath: path + "/" + name))
    }

    /// Deletes the file ``fill(leaving:name:)`` made: the space comes back.
    public func free(_ name: String = "filler") throws {
        try FileManager.default.removeItem(atPath: path + "/" + name)
    }

    /// Unmounts it (lazily: a server still holding files there lets go when it exits) and removes the directory.
    public func unmount() async {
        _ = try? await ServerProcess.run(executable: "umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Why mounting failed.
    public struct MountError: Error, CustomStringConvertible {
        /// What `mount` printed.
        public let output: String
        /// One line for a test's failure message.
        public var description: String { "cannot mount a tmpfs: \(output)" }
    }
}
