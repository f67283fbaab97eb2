import Foundation
import ChatAPI
import LoginAPI
import PersonAPI
import ViewHostAPI
import WeatherAPI
import ViewHostClient

/// One line that says what a feature's snapshot shows, through its typed view model (`watch` prints it per
/// change). Features the client has no type for get an empty summary.
enum SnapshotSummary {
    static func line(feature: String, json: Data) -> String {
        let change = ViewHostChange(feature: feature, version: 0, sequence: nil, json: json)
        switch feature {
        case ChatSnapshot.feature:
            guard let chat = try? change.decode(ChatSnapshot.self) else { return "" }
            let screens = chat.navigation.map { screen -> String in
                switch screen {
                case .chatList: "chatList"
                case .createChat: "createChat"
                case .chat(let contact): "chat(\(contact))"
                }
            }
            let chats = chat.chatList.chats.count
            return "\(screens.joined(separator: " > ")); \(chats) chat\(chats == 1 ? "" : "s"); badge \(chat.badge)"
        case WeatherSnapshot.feature:
            guard let weather = try? change.decode(WeatherSnapshot.self) else { return "" }
            return "\(weather.locationName): \(weather.summary) (\(weather.status.rawValue))"
        case LoginSnapshot.feature:
            guard let login = try? change.decode(LoginSnapshot.self) else { return "" }
            return "username \"\(login.username)\"; password \(login.passwordLength) characters; login "
                + (login.loginEnabled ? "enabled" : "disabled")
        case PersonSnapshot.feature:
            guard let person = try? change.decode(PersonSnapshot.self) else { return "" }
            return "\(person.nameText), born \(person.birthdateText)"
        default:
            return ""
        }
    }
}
