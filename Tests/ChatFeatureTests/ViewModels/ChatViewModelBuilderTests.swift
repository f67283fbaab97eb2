import Foundation
import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

struct ChatViewModelBuilderTests {
    let renderer = DateRenderer(timeZone: .gmt)
    let chat = Chat.make(messages: [.make(id: 1), .user(2)])

    @Test func firstLoadAnimatesAndInsertsEveryRowQuirkKept() {
        let viewModel = ChatViewModelBuilder.build(
            for: chat, isSending: false, isFirstLoad: true, previousMessages: .empty, dateRenderer: renderer)
        #expect(viewModel.shouldAnimateChanges)
        #expect(
            viewModel.tableViewDifferences
                == TableViewDataDifferences(
                    rowsToDelete: [], rowsToUpdate: [], rowsToInsert: [0, 1], finalRowCount: 2))
    }

    @Test func laterBuildsNeverAnimateQuirkKept() {
        let viewModel = ChatViewModelBuilder.build(
            for: chat, isSending: false, isFirstLoad: false, previousMessages: MessageWindow(start: 0, end: 1),
            dateRenderer: renderer)
        #expect(!viewModel.shouldAnimateChanges)
        #expect(viewModel.tableViewDifferences.rowsToInsert == [1])
    }

    /// The button shows the spinner while busy, but the return key still sends (quirk kept), so the action stays
    /// enabled and the server accepts it.
    @Test func sendingWipesTheFieldAndIsBusyButSendStaysEnabledQuirkKept() {
        let viewModel = ChatViewModelBuilder.build(
            for: chat, isSending: true, isFirstLoad: false, dateRenderer: renderer)
        #expect(viewModel.shouldWipeMessage)
        #expect(viewModel.shouldBeBusy)
        #expect(viewModel.actions.send.enabled == true)
        let idle = ChatViewModelBuilder.build(for: chat, isSending: false, isFirstLoad: false, dateRenderer: renderer)
        #expect(!idle.shouldWipeMessage && !idle.shouldBeBusy)
        #expect(idle.actions.send.enabled == true)
    }

    @Test func emptyChatShowsEmpty() {
        let viewModel = ChatViewModelBuilder.build(
            for: .make(messages: []), isSending: false, isFirstLoad: true, dateRenderer: renderer)
        #expect(viewModel.shouldShowEmpty)
        #expect(
            !ChatViewModelBuilder.build(for: chat, isSending: false, isFirstLoad: true, dateRenderer: renderer)
                .shouldShowEmpty)
    }

    @Test func errorIsShownQuirkFixed() {
        let viewModel = ChatViewModelBuilder.build(
            for: chat, isSending: false, isFirstLoad: false, error: "Enter a message!", dateRenderer: renderer)
        #expect(viewModel.shouldShowError)
        #expect(viewModel.error == "Enter a message!")
        let fine = ChatViewModelBuilder.build(for: chat, isSending: false, isFirstLoad: false, dateRenderer: renderer)
        #expect(!fine.shouldShowError)
        #expect(fine.error == nil)
    }

    @Test func withoutPreviousMessagesEveryRowIsAnUpdate() {
        let viewModel = ChatViewModelBuilder.build(
            for: chat, isSending: false, isFirstLoad: false, dateRenderer: renderer)
        #expect(
            viewModel.tableViewDifferences
                == TableViewDataDifferences(
                    rowsToDelete: [], rowsToUpdate: [0, 1], rowsToInsert: [], finalRowCount: 2))
    }

    @Test func titleContactMessagesAndActionsComeFromTheChat() {
        let viewModel = ChatViewModelBuilder.build(
            for: chat, isSending: false, isFirstLoad: false, dateRenderer: renderer)
        #expect(viewModel.title == "John")
        #expect(viewModel.contact == "John")
        #expect(viewModel.placeholder == "Type your message")
        #expect(viewModel.sendTitle == "Send")
        #expect(viewModel.messages.map(\.id) == ["m1", "m2"])
        #expect(
            viewModel.actions.send
                == ActionDescriptor(
                    event: "send", fields: ["contact": "John", "text": "{text}"], enabled: true))
        #expect(
            viewModel.actions.afterShowingMessages == ActionDescriptor(event: "userRead", fields: ["contact": "John"]))
    }

    @Test func buildFailedShowsOnlyTheErrorWithActionsThatDoNothing() {
        let viewModel = ChatViewModelBuilder.buildFailed(reason: "Cannot connect to chat")
        #expect(viewModel.shouldShowError)
        #expect(viewModel.error == "Cannot connect to chat")
        #expect(!viewModel.shouldAnimateChanges && !viewModel.shouldWipeMessage && !viewModel.shouldBeBusy)
        #expect(!viewModel.shouldShowEmpty)
        #expect(viewModel.contact == "" && viewModel.title == "")
        #expect(viewModel.messages.isEmpty)
        #expect(viewModel.tableViewDifferences == .empty)
        #expect(viewModel.actions.send.enabled == false)
        #expect(viewModel.actions.afterShowingMessages.enabled == false)
    }
}
