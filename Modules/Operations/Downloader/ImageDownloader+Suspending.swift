import WebImageCore

/// The manager pauses the queue through Core's protocol while the network is down.
extension ImageDownloader: DownloadQueueSuspending {}

/// The manager holds new downloads back through Core's protocol while its loads wait for
/// their memory budget.
extension ImageDownloader: DownloadStartHolding {}
