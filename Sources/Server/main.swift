import ViewHost

await ViewHostCommand.run()
