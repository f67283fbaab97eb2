import Foundation
import Testing
import ChatAPI
import ViewHostAPI

@testable import ChatFeature

struct TableViewDataDifferentiatorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let old: [Int]
        let new: [Int]
        let expected: TableViewDataDifferences
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(
            name: "first load", old: [], new: [1, 2],
            expected: .init(
                rowsToDelete: [], rowsToUpdate: [], rowsToInsert: [0, 1], finalRowCount: 2)),
        Case(
            name: "same rows", old: [1, 2], new: [1, 2],
            expected: .init(
                rowsToDelete: [], rowsToUpdate: [0, 1], rowsToInsert: [], finalRowCount: 2)),
        Case(
            name: "appended", old: [1, 2], new: [1, 2, 3],
            expected: .init(
                rowsToDelete: [], rowsToUpdate: [0, 1], rowsToInsert: [2], finalRowCount: 3)),
        Case(
            name: "capped", old: [1, 2, 3], new: [2, 3, 4],
            expected: .init(
                rowsToDelete: [0], rowsToUpdate: [1, 2], rowsToInsert: [3], finalRowCount: 3)),
        Case(
            name: "all replaced", old: [1, 2], new: [3],
            expected: .init(
                rowsToDelete: [0, 1], rowsToUpdate: [], rowsToInsert: [2], finalRowCount: 1)),
        Case(name: "empty", old: [], new: [], expected: .empty),
    ])
    func differencesFollowTheOriginalsNumbering(_ example: Case) {
        #expect(
            TableViewDataDifferentiator.differentiate(oldValues: example.old, with: example.new) == example.expected)
    }

    @Test func twoMessagesInOneSecondAreTwoRowsQuirkFixed() {
        let renderer = DateRenderer(timeZone: .gmt)
        let first = Message.user(1, "one", state: .sent, at: .fixture)
        let second = Message.user(2, "two", state: .sending, at: .fixture)
        let chat = Chat.make(messages: [first, second])
        let viewModel = ChatViewModelBuilder.build(
            for: chat, isSending: true, isFirstLoad: false, previousMessages: MessageWindow(start: 0, end: 1),
            dateRenderer: renderer)
        // Matched by sendDate (the original), the second message would have been an update of row 0.
        #expect(
            viewModel.tableViewDifferences
                == TableViewDataDifferences(
                    rowsToDelete: [], rowsToUpdate: [0], rowsToInsert: [1], finalRowCount: 2))
    }
}
