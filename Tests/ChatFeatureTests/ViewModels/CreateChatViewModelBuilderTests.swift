import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

struct CreateChatViewModelBuilderTests {
    @Test func idleEnablesCreateWithoutSpinnerOrError() {
        let create = CreateChatViewModelBuilder.build(isSending: false, error: nil)
        #expect(create.enableCreate)
        #expect(!create.showSpinner)
        #expect(create.hideError)
        #expect(create.error == "")
        #expect(create.actions.create.enabled == true)
    }

    @Test func sendingShowsSpinnerAndDisablesCreate() {
        let create = CreateChatViewModelBuilder.build(isSending: true, error: nil)
        #expect(!create.enableCreate)
        #expect(create.showSpinner)
        #expect(create.actions.create.enabled == false)
    }

    @Test func errorTextIsInTheViewModelQuirkFixed() {
        let create = CreateChatViewModelBuilder.build(isSending: false, error: "Please provide a contact name")
        #expect(!create.hideError)
        #expect(create.error == "Please provide a contact name")
    }

    @Test func showsTheOriginalsTextsAndCreateAction() {
        let create = CreateChatViewModelBuilder.build(isSending: false, error: nil)
        #expect(create.title == "Create Chat")
        #expect(create.introduction == "Enter the name of the contact you want to start a new chat with:")
        #expect(create.placeholder == "Contact")
        #expect(create.createTitle == "create")
        #expect(
            create.actions.create == ActionDescriptor(event: "create", fields: ["contact": "{contact}"], enabled: true))
    }
}
