import Foundation
import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

/// The snapshot's JSON follows API.md's chat snapshot (the app layer adds `feature` and `version`).
struct ChatSnapshotEncodingTests {
    private func json(_ snapshot: ChatSnapshot) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.userInfo[.actionHref] = "/v1/sessions/ID/chat/events"
        let data = try encoder.encode(snapshot)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func listSnapshotHasEveryKeyWithNullsWhereAPIShowsThem() throws {
        let chat = ChatHarness().loaded()
        let object = try json(chat.snapshot)
        #expect(
            Set(object.keys) == [
                "badge", "navigation", "chatList", "createChat", "conversations", "notifications", "actions",
            ])
        #expect(object["createChat"] is NSNull)
        #expect(object["badge"] as? Int == 1)
        #expect((object["navigation"] as? [[String: String]]) == [["screen": "chatList"]])
        let list = try #require(object["chatList"] as? [String: Any])
        #expect(
            Set(list.keys) == [
                "title", "showSpinner", "hideEmptyMessage", "hideChats", "emptyMessage", "chats", "actions",
            ])
        let row = try #require((list["chats"] as? [[String: Any]])?.first)
        #expect(Set(row.keys) == ["contact", "message", "lastMessageDate", "unreadMessageCount", "actions"])
        let tap = try #require((row["actions"] as? [String: Any])?["itemTapped"] as? [String: Any])
        #expect(tap["method"] as? String == "POST")
        #expect(tap["href"] as? String == "/v1/sessions/ID/chat/events")
        #expect((tap["body"] as? [String: String]) == ["type": "openChat", "contact": "John"])
        let back = try #require((object["actions"] as? [String: Any])?["back"] as? [String: Any])
        #expect(back["enabled"] as? Bool == false)
    }

    @Test func chatAndCreateScreensEncodeTheirFieldsAndActions() throws {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hey John", contact: nil), .addChat)
        let object = try json(chat.snapshot)
        #expect(
            (object["navigation"] as? [[String: String]]) == [
                ["screen": "chatList"], ["screen": "chat", "contact": "John"], ["screen": "createChat"],
            ])
        let create = try #require(object["createChat"] as? [String: Any])
        #expect(create["error"] as? String == "")
        let createAction = try #require((create["actions"] as? [String: Any])?["create"] as? [String: Any])
        #expect((createAction["body"] as? [String: String]) == ["type": "create", "contact": "{contact}"])
        #expect(createAction["enabled"] as? Bool == true)
        let john = try #require((object["conversations"] as? [String: Any])?["John"] as? [String: Any])
        #expect(
            Set(john.keys) == [
                "title", "contact", "placeholder", "sendTitle", "shouldAnimateChanges", "shouldWipeMessage",
                "shouldBeBusy", "shouldShowEmpty", "shouldShowError", "error", "messages", "tableViewDifferences",
                "actions",
            ])
        #expect(john["error"] is NSNull)
        let messages = try #require(john["messages"] as? [[String: String]])
        #expect(
            messages.last == [
                "id": "m2", "sentBy": "user", "message": "Hey John", "sendStatus": "Sending...", "readStatus": "",
            ])
        let differences = try #require(john["tableViewDifferences"] as? [String: Any])
        #expect(differences["rowsToInsert"] as? [Int] == [1])
        #expect(differences["finalRowCount"] as? Int == 2)
        let actions = try #require(john["actions"] as? [String: [String: Any]])
        #expect(
            (actions["send"]?["body"] as? [String: String]) == ["type": "send", "contact": "John", "text": "{text}"])
        #expect(actions["send"]?["enabled"] as? Bool == true)  // busy, but the return key still sends (quirk kept)
        #expect(
            (actions["afterShowingMessages"]?["body"] as? [String: String]) == ["type": "userRead", "contact": "John"])
    }

    @Test func notificationsEncodeAsBanners() throws {
        let chat = ChatHarness().loaded()
        chat.send(.openChat(contact: "John"), .send(text: "Hi", contact: nil), .back)
        chat.advance(seconds: 25)
        let object = try json(chat.snapshot)
        let banner = try #require((object["notifications"] as? [[String: Any]])?.first)
        #expect(Set(banner.keys) == ["id", "title", "subtitle", "body", "badge", "shown", "actions"])
        #expect(banner["id"] as? String == "n1")
        let tap = try #require((banner["actions"] as? [String: [String: Any]])?["tap"])
        #expect((tap["body"] as? [String: String]) == ["type": "notificationTap", "contact": "John"])
        #expect(banner["shown"] as? Bool == true)
    }

    @Test func sameStateEncodesToTheSameBytes() throws {
        let first = ChatHarness().loaded()
        let second = ChatHarness().loaded()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(first.snapshot) == encoder.encode(second.snapshot))
    }
}
