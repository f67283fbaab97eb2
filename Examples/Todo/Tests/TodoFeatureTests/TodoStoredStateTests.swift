import Foundation
import Testing
import TodoFeature
import ViewHostTesting

/// Lists and events as this release stores them (schema version 1), kept as fixtures and read as the next build
/// will load them: a change of `TodoState`'s or `TodoEvent`'s `Codable` shape fails here until `schemaVersion` is
/// raised and version 1 migrated (then these read through the migration, and should still pass).
struct TodoStoredStateTests {
    @Test func aListStoredByVersionOneStillLoads() throws {
        let stored = #"{"items":[{"done":true,"id":"t1","title":"Milk"},{"done":false,"id":"t2","title":"Bread"}],"nextID":3}"#
        let state = try StoredMigration.state(of: TodoApp.self, stored: Data(stored.utf8), version: 1)
        #expect(state.items == [.init(id: "t1", title: "Milk", done: true), .init(id: "t2", title: "Bread", done: false)])
        #expect(state.nextID == 3)
        #expect(state.undo == nil)
    }

    @Test func eventsStoredByVersionOneStillLoad() throws {
        let stored = #"[{"add":{"title":"Milk"}},{"toggle":{"id":"t1"}},{"clearCompleted":{}},{"undoExpired":{}}]"#
        let events = try StoredMigration.events(of: TodoApp.self, stored: Data(stored.utf8), version: 1)
        #expect(events == [.add(title: "Milk"), .toggle(id: "t1"), .clearCompleted, .undoExpired])
    }
}
