import Foundation

/// The picture behind ``SyntheticImage/photo(width:height:seed:)``: a smooth
/// background, overlapping shapes (hard and soft edges, some with fine stripes like
/// fabric or foliage) and mild sensor-like noise.
///
/// Every feature is sized relative to the image, so a thumbnail and a 4000x3000
/// version look alike; the noise is what keeps JPEG near a photo's 1-2 bits per
/// pixel at quality 85.
struct PhotoScene {
    private struct Wave {
        var amplitude: Float
        var frequency: Float
        var phase: Float
        func value(_ t: Int) -> Float { amplitude * sin(frequency * Float(t) + phase) }
    }

    private enum Outline { case ellipse, rectangle }

    private struct Shape {
        var outline: Outline
        var centerX: Float, centerY: Float
        var radiusX: Float, radiusY: Float
        var color: (Float, Float, Float)
        /// Colour change across the shape, left to right.
        var gradient: (Float, Float, Float)
        var opacity: Float
        /// Edge width in pixels (1 is a crisp anti-aliased edge).
        var softness: Float
        /// Stripe period in pixels and strength; 0 strength for a plain shape.
        var stripePeriod: Float, stripeStrength: Float
    }

    private let width: Int
    private let height: Int
    private let seed: UInt64
    private var columnTerms: [Float] = []  // width x 3: base + horizontal wave
    private var rowTerms: [Float] = []  // height x 3
    private var diagonalTerms: [Float] = []  // (width + height) x 3
    private var shapes: [Shape] = []
    /// Peak luminance noise, in 8-bit steps.
    private let noise: Int32 = 7

    init(width: Int, height: Int, seed: UInt64) {
        self.width = width
        self.height = height
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        let side = Float(Swift.max(1, Swift.min(width, height)))
        columnTerms = [Float](repeating: 0, count: width * 3)
        rowTerms = [Float](repeating: 0, count: height * 3)
        diagonalTerms = [Float](repeating: 0, count: (width + height) * 3)
        for channel in 0..<3 {
            let base = Float(random.double(in: 70...170))
            let horizontal = Self.wave(&random, amplitude: 20...45, period: Float(width) * 0.4...Float(width) * 1.6)
            let vertical = Self.wave(&random, amplitude: 20...45, period: Float(height) * 0.4...Float(height) * 1.6)
            let diagonal = Self.wave(&random, amplitude: 8...20, period: side * 0.15...side * 0.5)
            for x in 0..<width { columnTerms[x * 3 + channel] = base + horizontal.value(x) }
            for y in 0..<height { rowTerms[y * 3 + channel] = vertical.value(y) }
            for t in 0..<(width + height) { diagonalTerms[t * 3 + channel] = diagonal.value(t) }
        }
        for _ in 0..<28 {
            shapes.append(Self.shape(&random, width: Float(width), height: Float(height), side: side))
        }
    }

    private static func wave(_ random: inout SeededGenerator, amplitude: ClosedRange<Float>, period: ClosedRange<Float>) -> Wave {
        let lower = Swift.max(period.lowerBound, 1)
        let upper = Swift.max(period.upperBound, lower)
        return Wave(
            amplitude: Float(random.double(in: Double(amplitude.lowerBound)...Double(amplitude.upperBound))),
            frequency: 2 * .pi / Float(random.double(in: Double(lower)...Double(upper))),
            phase: Float(random.double(in: 0...(2 * .pi)))
        )
    }

    private static func shape(_ random: inout SeededGenerator, width: Float, height: Float, side: Float) -> Shape {
        func pick(_ range: ClosedRange<Double>) -> Float { Float(random.double(in: range)) }
        let striped = random.double(in: 0...1) < 0.35
        return Shape(
            outline: random.double(in: 0...1) < 0.6 ? .ellipse : .rectangle,
            centerX: pick(0...Double(width)), centerY: pick(0...Double(height)),
            radiusX: side * pick(0.03...0.22), radiusY: side * pick(0.03...0.22),
            color: (pick(20...235), pick(20...235), pick(20...235)),
            gradient: (pick(-40...40), pick(-40...40), pick(-40...40)),
            opacity: pick(0.55...1),
            softness: random.double(in: 0...1) < 0.5 ? 1 : Swift.max(1, side * pick(0.005...0.04)),
            stripePeriod: pick(3...14),
            stripeStrength: striped ? pick(10...35) : 0
        )
    }

    /// Paints RGBA pixels (alpha 255) into `pixels`, rows `bytesPerRow` apart.
    func paint(into pixels: UnsafeMutablePointer<UInt8>, bytesPerRow: Int) {
        paintBackground(pixels, bytesPerRow)
        for shape in shapes { paint(shape, pixels, bytesPerRow) }
        addNoise(pixels, bytesPerRow)
    }

    private func paintBackground(_ pixels: UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int) {
        columnTerms.withUnsafeBufferPointer { columns in
            rowTerms.withUnsafeBufferPointer { rows in
                diagonalTerms.withUnsafeBufferPointer { diagonals in
                    for y in 0..<height {
                        let row = pixels + y * bytesPerRow
                        for x in 0..<width {
                            for c in 0..<3 {
                                let value = columns[x * 3 + c] + rows[y * 3 + c] + diagonals[(x + y) * 3 + c]
                                row[x * 4 + c] = Self.clamp(value)
                            }
                            row[x * 4 + 3] = 255
                        }
                    }
                }
            }
        }
    }

    private func paint(_ shape: Shape, _ pixels: UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int) {
        let reach = shape.softness
        let minX = Swift.max(0, Int(shape.centerX - shape.radiusX - reach))
        let maxX = Swift.min(width - 1, Int(shape.centerX + shape.radiusX + reach))
        let minY = Swift.max(0, Int(shape.centerY - shape.radiusY - reach))
        let maxY = Swift.min(height - 1, Int(shape.centerY + shape.radiusY + reach))
        guard minX <= maxX, minY <= maxY else { return }
        let smallerRadius = Swift.min(shape.radiusX, shape.radiusY)
        let color = [shape.color.0, shape.color.1, shape.color.2]
        let gradient = [shape.gradient.0, shape.gradient.1, shape.gradient.2]
        for y in minY...maxY {
            let row = pixels + y * bytesPerRow
            let dy = Float(y) + 0.5 - shape.centerY
            for x in minX...maxX {
                let dx = Float(x) + 0.5 - shape.centerX
                // Signed distance to the outline in pixels, positive inside.
                let inside: Float
                switch shape.outline {
                case .ellipse:
                    let d = ((dx / shape.radiusX) * (dx / shape.radiusX) + (dy / shape.radiusY) * (dy / shape.radiusY)).squareRoot()
                    inside = (1 - d) * smallerRadius
                case .rectangle:
                    inside = Swift.min(shape.radiusX - abs(dx), shape.radiusY - abs(dy))
                }
                let coverage = Swift.min(1, Swift.max(0, inside / shape.softness + 0.5)) * shape.opacity
                guard coverage > 0 else { continue }
                let across = dx / (2 * shape.radiusX)  // -0.5...0.5
                var stripe: Float = 0
                if shape.stripeStrength > 0 {
                    stripe = shape.stripeStrength * sin(2 * .pi * (Float(x) + 0.6 * Float(y)) / shape.stripePeriod)
                }
                for c in 0..<3 {
                    let target = color[c] + gradient[c] * across + stripe
                    let current = Float(row[x * 4 + c])
                    row[x * 4 + c] = Self.clamp(current + (target - current) * coverage)
                }
            }
        }
    }

    private func addNoise(_ pixels: UnsafeMutablePointer<UInt8>, _ bytesPerRow: Int) {
        let span = UInt32(2 * noise + 1)
        for y in 0..<height {
            let row = pixels + y * bytesPerRow
            // One xorshift stream per row keeps the noise cheap and independent of
            // how the rows are visited.
            var state = UInt32(truncatingIfNeeded: (seed &* 0x9E37_79B9) ^ UInt64(y &* 0x85EB_CA6B) ^ 0x2545_F491) | 1
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                let luma = Int32(state % span) - noise
                let chroma = Int32((state >> 16) % 3) - 1
                for c in 0..<3 {
                    let value = Int32(row[x * 4 + c]) + luma + (c == 1 ? 0 : chroma)
                    row[x * 4 + c] = UInt8(clamping: value)
                }
            }
        }
    }

    @inline(__always)
    private static func clamp(_ value: Float) -> UInt8 {
        UInt8(Swift.min(255, Swift.max(0, value)).rounded())
    }
}
