import WebImageCore

/// The manager pauses the queue through Core's protocol while the network is down.
extension ImageDownloader: DownloadQueueSuspending {}
