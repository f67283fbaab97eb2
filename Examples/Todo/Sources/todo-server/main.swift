import TodoFeature
import ViewHostCommandLine

// ViewHost serving the to-do list, and nothing else: every option of `viewhost` (serve, backup, check, client).
await ViewHostCommand.run(features: [.todo])
