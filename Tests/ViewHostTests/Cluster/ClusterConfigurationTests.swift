import Foundation
import Testing
import ViewHost

/// `cluster.internalAddress` and `cluster.secret`: both or neither, a `HOST:PORT`, only for a node of a cluster
/// (PostgreSQL), and the secret long enough and never repeated in an error.
struct ClusterConfigurationTests {
    static let postgres = ["store.kind": "postgres", "store.databaseURL": "postgres://viewhost@db/viewhost"]

    private func load(
        flags: [String: String], environment: [String: String] = [:]
    ) async throws(ConfigurationError) -> AppConfiguration {
        try await AppConfiguration.seedLoad(
            from: .init(flags: flags, environment: environment, filePath: "/nonexistent/viewhost-\(UUID()).json"))
    }

    private func refusal(
        flags: [String: String], environment: [String: String] = [:]
    ) async -> (key: String, reason: String)? {
        do {
            _ = try await load(flags: flags, environment: environment)
            return nil
        } catch {
            guard case .invalidValue(let key, _, let reason) = error else { return nil }
            #expect(error.exitCode == 78)
            return (key, reason)
        }
    }

    @Test func anAddressAndASecretMakeANodeThatForwards() async throws {
        let loaded = try await load(
            flags: Self.postgres.merging(["cluster.internalAddress": "10.0.0.7:9090"]) { $1 },
            environment: ["VIEWHOST_CLUSTER_SECRET": "0123456789abcdef"])
        #expect(loaded.store.internalAddress == "10.0.0.7:9090")
        #expect(loaded.store.clusterSecret == "0123456789abcdef")
    }

    @Test func neitherIsTheDefault() async throws {
        let loaded = try await load(flags: Self.postgres)
        #expect(loaded.store.internalAddress == nil && loaded.store.clusterSecret == nil)
    }

    @Test func anAddressWithoutTheSecretIsRefused() async throws {
        let refused = await refusal(flags: Self.postgres.merging(["cluster.internalAddress": "127.0.0.1:0"]) { $1 })
        #expect(refused?.key == "cluster.secret")
        #expect(refused?.reason.contains("VIEWHOST_CLUSTER_SECRET") == true)
    }

    @Test func anAddressWithoutPostgresIsRefused() async throws {
        let refused = await refusal(
            flags: ["cluster.internalAddress": "127.0.0.1:9090"], environment: ["VIEWHOST_CLUSTER_SECRET": "0123456789abcdef"])
        #expect(refused?.key == "cluster.internalAddress")
    }

    @Test(arguments: ["9090", "host:", "host:99999", ":", "host:port"])
    func anAddressThatIsNoHostAndPortIsRefused(_ address: String) async throws {
        let refused = await refusal(
            flags: Self.postgres.merging(["cluster.internalAddress": address]) { $1 },
            environment: ["VIEWHOST_CLUSTER_SECRET": "0123456789abcdef"])
        #expect(refused?.key == "cluster.internalAddress", "\(address)")
    }

    @Test(arguments: ["short", "sixteen chars  x", "0123456789abcde\u{7F}"])
    func aSecretTooShortOrWithSpacesIsRefusedWithoutBeingRepeated(_ secret: String) async throws {
        let refused = await refusal(
            flags: Self.postgres.merging(["cluster.internalAddress": "127.0.0.1:0"]) { $1 },
            environment: ["VIEWHOST_CLUSTER_SECRET": secret])
        #expect(refused?.key == "cluster.secret")
        #expect(refused.map { !$0.reason.contains(secret) } == true)
    }
}
