import ViewModelCore

extension StorageError {
    /// The sysexits(3) status `viewhost` exits with: 73 (`EX_CANTCREAT`) when the data directory or a backup's output
    /// cannot be made or written, 65 (`EX_DATAERR`) when the store file is corrupt, foreign or newer, 66
    /// (`EX_NOINPUT`) when there is no store to read, 69 (`EX_UNAVAILABLE`) when the database cannot be reached, 74
    /// (`EX_IOERR`) otherwise.
    var exitCode: Int32 {
        switch self {
        case .cannotCreate, .cannotWrite: 73
        case .noStore: 66
        case .unusable: 65
        case .unreachable: 69
        case .failed: 74
        }
    }
}
