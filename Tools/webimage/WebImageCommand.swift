import ArgumentParser

/// The `webimage` program: decode image files (and, as the library grows, fetch and
/// serve them) from the command line.
@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Load, decode and inspect images with swift-web-image.",
        subcommands: [DecodeCommand.self, SamplesCommand.self]
    )
}
