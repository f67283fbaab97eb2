import SharedListFeature
import ViewHostCommandLine

// ViewHost serving the shared list, and nothing else: every option of `viewhost` (serve, backup, check, client).
await ViewHostCommand.run(features: [.sharedList])
