import Foundation
import WebImageProxy

// Prints the option parser's time per URL, in microseconds: a path of 20 imgproxy
// options read into `ProcessingOptions` as the proxy reads a request's, the median of
// five rounds of 20,000. WebImageBenchmarks runs this and reports the figure.

let proxy = ImageProxy(configuration: ImageProxy.Configuration())
let path =
    "/unsafe/rs:fill:300:200:0:1/g:fp:0.3:0.6/q:80/fq:webp:70:avif:50/bl:0.5/sh:0.3/pd:4:8/bg:ffffff/ar:1/rot:90/fl:1:0"
    + "/mw:100/mh:80/z:1.5/dpr:2/c:0.9:0.9/t:10/cb:123/fn:thumb/exp:4102444800/plain/https%3A%2F%2Fexample.com%2Fimages%2Fphoto.jpg@webp"
let options = try proxy.options(for: ProxyPath(path))
guard options.width == 300, options.trim != nil, options.format == .webp else {
    FileHandle.standardError.write(Data("the URL did not parse as written\n".utf8))
    exit(1)
}
let rounds = 5
let iterations = 20_000
var times: [Double] = []
var widths = 0
for _ in 0..<rounds {
    let start = ContinuousClock.now
    for _ in 0..<iterations { widths &+= try proxy.options(for: ProxyPath(path)).width }
    let elapsed = ContinuousClock.now - start
    times.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(iterations))
}
// The sum keeps the parses from being optimised away.
guard widths == 300 * rounds * iterations else { exit(1) }
print(String(format: "%.3f", times.sorted()[rounds / 2] * 1e6))
