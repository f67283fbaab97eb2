import ViewHostAPI
import ViewModelCore

/// Every version of a feature a session's history holds, rebuilt by replaying it from its oldest checkpoint: what
/// the stores' tests compare with the versions the session made.
public enum HistoryWalk {
    /// `feature`'s versions held by session `id` in `source`, each with its view model, from the oldest
    /// checkpoint's on; and the records read, in order.
    public static func versions(
        of feature: String, session id: SessionID, in source: any SessionHistoryReading
    ) throws -> (versions: [Int: any ViewModel], records: [Int]) {
        guard let first = try source.checkpoints(of: id).first,
            let core = try source.checkpoint(of: id, at: first.number)
        else { return ([:], []) }
        var cursor = HistoryCursor(core: core, number: first.number)
        var versions: [Int: any ViewModel] = [:]
        if let (version, viewModel) = core.snapshot(of: feature) { versions[version] = viewModel }
        var numbers: [Int] = []
        while true {
            let records = try source.records(of: id, after: cursor.number, limit: 100)
            if records.isEmpty { break }
            for record in records {
                numbers.append(record.number)
                for (version, viewModel) in try cursor.apply(record, collecting: feature) {
                    versions[version] = viewModel
                }
            }
        }
        return (versions, numbers)
    }
}
