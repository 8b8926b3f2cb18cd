import ArgumentParser

/// The `webimage` program: load images from the web through the library's pipeline,
/// serve a directory to load them from, manage the disk cache, and decode files.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode and inspect images with swift-web-image.",
        discussion: "`webimage demo` shows the whole pipeline on the project's own sample images.",
        subcommands: [
            FetchCommand.self, PrefetchCommand.self, ServeCommand.self, CacheCommand.self, DemoCommand.self,
            DecodeCommand.self, SamplesCommand.self, ReachabilityCommand.self, ProxyCommand.self,
        ]
    )
}
