import Foundation
import Testing
import ViewModelCore

@testable import ChatFeature

struct PushNotificationControllerTests {
    @Test func receivedPushIsDatedFromItsSubtitleSoItsSecondsAreLostQuirkKept() {
        let rig = SimulationRig()
        var context = SimulationRig.context(now: .fixture.addingTimeInterval(42))
        rig.pushController.received(
            PushNotification(title: "John", subtitle: "23-11-2026 14:00", body: "Hey", badge: 3), context: &context)
        guard case .message(.received(let message, "John")) = context.routedEvents.first?.event else {
            Issue.record("expected received, got \(context.routedEvents)")
            return
        }
        #expect(message.sendDate == .fixture)
        #expect(message.sender == .other(name: "John") && message.state == .sent && message.message == "Hey")
        #expect(
            rig.pushController.makeViewModels() == [
                NotificationViewModel(
                    id: "n1", title: "John", subtitle: "23-11-2026 14:00", body: "Hey", badge: 3, shown: true)
            ])
    }

    @Test func unreadableSubtitleDatesTheMessageNow() {
        let rig = SimulationRig()
        let now = Date.fixture.addingTimeInterval(42)
        var context = SimulationRig.context(now: now)
        rig.pushController.received(
            PushNotification(title: "John", subtitle: "soon", body: "Hey", badge: 0), context: &context)
        guard case .message(.received(let message, _)) = context.routedEvents.first?.event else {
            Issue.record("expected received")
            return
        }
        #expect(message.sendDate == now)
    }
}
