import Foundation
import ViewHostAPI
import ViewModelCore

extension TestHost {
    /// A session read from a journal export (`GET /v1/sessions/{id}/journal`, or a file `viewhost replay` reads),
    /// replayed to its end: a user's session as a test fixture. Every version of each feature the export holds is
    /// in ``snapshots(of:)`` and ``snapshot(of:version:)``; the clock stands at the last input's instant, so the
    /// test goes on from where the user was: send intents, move the clock, state what should have happened.
    ///
    /// ```swift
    /// var host = try TestHost(journal: Data(contentsOf: fixture), features: [.chat])
    /// #expect(host.snapshot(of: ChatApp.key, version: 41)?.badge == 2)   // what the user saw at version 41
    /// try host.send(ChatIntent.back, to: ChatApp.key)                   // and what they did next
    /// ```
    ///
    /// - Parameters:
    ///   - journal: The export's bytes.
    ///   - features: The registrations whose features the export holds (and their runners, for ``runRequests()``).
    ///   - settings: Feature settings by key path, as text (every other key at its default).
    ///   - environment: Environment variables the features may read (secrets).
    ///   - importedAt: The instant it is read at: nothing in the export may lie after it, as for a server's
    ///     import (by default the wall clock's now; a fixture is read as a server would read it today).
    /// - Throws: `JournalImportError` naming the line of an export that does not read back (cut short, reordered,
    ///   edited, or holding what a live session could not: see `JournalImport`), or `SettingError` for a setting a
    ///   feature cannot use.
    public init(
        journal: some Sequence<UInt8>, features: [FeatureRegistration], settings: [String: String] = [:],
        environment: [String: String] = [:], importedAt: Date = Date()
    ) throws {
        let values = FixedFeatureSettings(settings, environment: environment)
        var runners: [String: @Sendable (any Sendable) async -> (any Sendable)?] = [:]
        for hosting in try features.map({ try $0.hosting(with: values) }) {
            runners[Self.name(of: hosting)] = Self.runner(of: hosting)
        }
        var recorded: [String: [(version: Int, snapshot: any ViewModel)]] = [:]
        let imported = try JournalImport.read(
            Array(journal), types: FeatureTypes(merging: features.map(\.types)), now: importedAt
        ) {
            _, feature, version, viewModel in recorded[feature, default: []].append((version, viewModel))
        }
        self.runners = runners
        self.recorded = recorded
        core = imported.final
        now = imported.records.last?.input.at ?? imported.createdAt ?? TestHost.defaultStart
    }

    /// `key`'s feature's snapshot at `version`, if the host saw it (read from its journal, or made since).
    public func snapshot<F: Feature>(of key: FeatureKey<F>, version: Int) -> F.Snapshot? {
        snapshots(of: key).last { $0.version == version }?.snapshot
    }
}
