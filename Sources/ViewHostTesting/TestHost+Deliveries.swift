import Foundation
import ViewModelCore

extension TestHost {
    /// The deliveries `key`'s feature made that their receivers have not acknowledged, in the order they were made
    /// (a host alone keeps them; a ``TestNetwork`` delivers them).
    public func deliveries<F: Feature>(of key: FeatureKey<F>) -> [FeatureDelivery<F.Event>] {
        core.deliveries(of: key)
    }
}
