import ArgumentParser
import Foundation
import ViewHost
import ViewModelCore

extension StorageError {
    /// The sysexits(3) status `viewhost` exits with: 73 (`EX_CANTCREAT`) when the data directory or a backup's output
    /// cannot be made or written, 65 (`EX_DATAERR`) when the store file is corrupt, foreign or newer (or a session
    /// does not decode with the app's features), 66
    /// (`EX_NOINPUT`) when a command finds no store in its data directory, 69 (`EX_UNAVAILABLE`) when the database
    /// cannot be reached, 75 (`EX_TEMPFAIL`) when another server uses the data directory (it may be one that is still
    /// draining: starting again later works), 74 (`EX_IOERR`) otherwise.
    var exitCode: Int32 {
        switch self {
        case .cannotCreate, .cannotWrite: 73
        case .noStore: 66
        case .unusable, .undecodable: 65
        case .unreachable: 69
        case .inUse: 75
        case .failed: 74
        }
    }
}

extension StorageError {
    /// What `body` returns; when it throws, one line on stderr (`viewhost: ` and the error) and the error's exit
    /// code, as the store's commands answer.
    static func exitingOnFailure<Result>(_ body: () throws(StorageError) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            FileHandle.standardError.write(Data("\(CommandFeatures.name): \(error)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
