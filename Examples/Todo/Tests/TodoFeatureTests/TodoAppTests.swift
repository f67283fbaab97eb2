import Foundation
import Testing
import TodoAPI
import TodoFeature
import ViewHostAPI
import ViewHostTesting
import ViewModelCore

/// The to-do feature in a ``TestHost``: intents in, states, snapshots and the undo window's timer out, all compared
/// by equality.
struct TodoAppTests {
    static func host() throws -> TestHost { try TestHost(features: [.todo]) }

    static func items(_ host: TestHost) -> [TodoState.Item] { host.state(of: TodoApp.key).items }

    @Test func addToggleAndEditChangeTheListAndTheSnapshot() throws {
        var host = try Self.host()
        #expect(host.snapshot(of: TodoApp.key).items.isEmpty)
        try host.send(TodoIntent.add(title: "  Milk "), to: TodoApp.key)
        try host.send(TodoIntent.add(title: "Bread"), to: TodoApp.key)
        try host.send(TodoIntent.toggle(item: "t1"), to: TodoApp.key)
        let step = try host.send(TodoIntent.edit(item: "t2", title: "Rye bread"), to: TodoApp.key)
        #expect(step.versions == ["todo": 5])
        #expect(Self.items(host) == [.init(id: "t1", title: "Milk", done: true), .init(id: "t2", title: "Rye bread", done: false)])
        let snapshot = host.snapshot(of: TodoApp.key)
        #expect(snapshot.remaining == 1)
        #expect(snapshot.actions.clearCompleted.isEnabled)
        #expect(snapshot.items[0].actions.toggle.body() == .success(["type": "toggle", "item": "t1"]))
        #expect(snapshot.items[1].actions.edit.body(filling: ["title": "Rye"]) == .success(["type": "edit", "item": "t2", "title": "Rye"]))
        #expect(snapshot.actions.add.placeholders == [ActionPlaceholder(name: "title")])
        #expect(snapshot.summaryLine == "2 items, 1 left")
    }

    /// A batch is all or nothing in the test host as on the server: refused at its second intent, the first is not
    /// applied and no version of it is recorded.
    @Test func aRefusedBatchChangesNothing() throws {
        var host = try Self.host()
        #expect(throws: SessionRefusal.self) {
            try host.send([TodoIntent.add(title: "Milk"), .toggle(item: "t9")], to: TodoApp.key)
        }
        #expect(Self.items(host).isEmpty)
        #expect(host.version(of: TodoApp.key) == 1)
        #expect(host.snapshots(of: TodoApp.key).allSatisfy { $0.version == 1 }, "no version of the refused batch recorded")
    }

    @Test func removeOpensAnUndoWindowThatItsTimerCloses() throws {
        var host = try Self.host()
        try host.send([TodoIntent.add(title: "Milk"), .add(title: "Bread")], to: TodoApp.key)
        let removed = try host.send(TodoIntent.remove(item: "t1"), to: TodoApp.key)
        #expect(removed.timersStarted.count == 1)
        #expect(
            host.timers(of: TodoApp.key)
                == [FeatureTimer(id: removed.timersStarted[0], dueAt: host.now.addingTimeInterval(5), event: .undoExpired, causedBy: 3)])
        #expect(host.snapshot(of: TodoApp.key).undoMessage == "Removed “Milk”")

        let expired = host.advance(by: .seconds(5))
        #expect(expired.count == 1)
        #expect(host.timers(of: TodoApp.key).isEmpty)
        #expect(host.snapshot(of: TodoApp.key).undoMessage == nil)
        #expect(throws: SessionRefusal.self) { try host.send(TodoIntent.undo, to: TodoApp.key) }
    }

    @Test func undoWithinTheWindowPutsItemsBackWhereTheyStoodAndCancelsTheTimer() throws {
        var host = try Self.host()
        try host.send([TodoIntent.add(title: "A"), .add(title: "B"), .add(title: "C")], to: TodoApp.key)
        try host.send([TodoIntent.toggle(item: "t1"), .toggle(item: "t3")], to: TodoApp.key)
        try host.send(TodoIntent.clearCompleted, to: TodoApp.key)
        #expect(Self.items(host).map(\.id) == ["t2"])
        host.advance(by: .seconds(4))
        let undone = try host.send(TodoIntent.undo, to: TodoApp.key)
        #expect(undone.timersCancelled.count == 1)
        #expect(Self.items(host).map(\.id) == ["t1", "t2", "t3"])
        #expect(host.timers(of: TodoApp.key).isEmpty)
        #expect(host.advance(by: .seconds(10)).isEmpty)
    }

    @Test func aSecondRemovalRestartsTheWindowForWhatItTook() throws {
        var host = try Self.host()
        try host.send([TodoIntent.add(title: "A"), .add(title: "B")], to: TodoApp.key)
        try host.send(TodoIntent.remove(item: "t1"), to: TodoApp.key)
        host.advance(by: .seconds(3))
        try host.send(TodoIntent.remove(item: "t2"), to: TodoApp.key)
        #expect(host.timers(of: TodoApp.key).map(\.dueAt) == [host.now.addingTimeInterval(5)])
        try host.send(TodoIntent.undo, to: TodoApp.key)
        #expect(Self.items(host).map(\.title) == ["B"])
    }

    @Test func refusalsSayWhyAndChangeNothing() throws {
        var host = try Self.host()
        #expect(throws: IntentRejection(field: "title", reason: "must not be empty")) {
            try host.send(TodoIntent.add(title: "   "), to: TodoApp.key)
        }
        #expect(
            throws: SessionRefusal.refused(EventRefusal(reason: "There is no item 't9'.", allowed: [TodoIntent.Kind.add]), index: 0)
        ) {
            try host.send(TodoIntent.toggle(item: "t9"), to: TodoApp.key)
        }
        #expect(throws: SessionRefusal.self) { try host.send(TodoIntent.clearCompleted, to: TodoApp.key) }
        #expect(host.version(of: TodoApp.key) == 1)
    }

    @Test func theLogNamesEachEventAndWhatCausedTheWindowToClose() throws {
        var host = try Self.host()
        try host.send(TodoIntent.add(title: "Milk"), to: TodoApp.key)
        try host.send(TodoIntent.remove(item: "t1"), to: TodoApp.key)
        host.advance(by: .seconds(5))
        #expect(host.log.map(\.event) == ["add", "remove", "undoExpired"])
        #expect(host.log.map(\.summary) == [#"title="Milk""#, #"id="t1""#, ""])
        #expect(host.log.last?.source == .timer)
        #expect(host.log.last?.causedBy == host.log[1].seq)
    }

    @Test func intentsRoundTripThroughTheirJSON() throws {
        for intent in [TodoIntent.add(title: "Milk"), .toggle(item: "t1"), .edit(item: "t1", title: "x"), .remove(item: "t2"), .clearCompleted, .undo] {
            let data = try JSONEncoder().encode(intent)
            #expect(try JSONDecoder().decode(TodoIntent.self, from: data) == intent)
        }
    }
}
