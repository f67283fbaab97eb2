import Foundation
import Testing
import ChatAPI
import ViewHostAPI
import ViewModelCore

@testable import ChatFeature

struct PushNotificationControllerTests {
    @Test func receivedPushIsDatedFromItsSubtitleSoItsSecondsAreLostQuirkKept() {
        var rig = SimulationRig()
        var context = SimulationRig.context(now: .fixture.addingTimeInterval(42))
        PushNotificationController.received(PushNotification(title: "John", subtitle: "23-11-2026 14:00", body: "Hey", badge: 3), state: &rig.state, context: &context)
        guard case .message(.received(let message, "John")) = context.routedEvents.first?.event else {
            Issue.record("expected received, got \(context.routedEvents)")
            return
        }
        #expect(message.sendDate == .fixture)
        #expect(message.sender == .other(name: "John") && message.state == .sent && message.message == "Hey")
        #expect(
            PushNotificationController.makeViewModels(state: rig.state) == [
                NotificationViewModel(
                    id: "n1", title: "John", subtitle: "23-11-2026 14:00", body: "Hey", badge: 3, shown: true)
            ])
    }

    @Test func unreadableSubtitleDatesTheMessageNow() {
        var rig = SimulationRig()
        let now = Date.fixture.addingTimeInterval(42)
        var context = SimulationRig.context(now: now)
        PushNotificationController.received(PushNotification(title: "John", subtitle: "soon", body: "Hey", badge: 0), state: &rig.state, context: &context)
        guard case .message(.received(let message, _)) = context.routedEvents.first?.event else {
            Issue.record("expected received")
            return
        }
        #expect(message.sendDate == now)
    }
}
