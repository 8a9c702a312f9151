import GeoCore
import Testing

/// The one error of a bad field says which field, what it allows and what was given, under the name its reader
/// writes (a query parameter bare, an option with "--").
@Suite("Bad field")
struct BadFieldTests {
    @Test func anOutOfRangeValueNamesTheFieldTheBoundsAndTheValue() {
        let error = BadField.outOfRange("speeds.primary", given: "400.0", allowed: 1...130, unit: "km/h")
        #expect(error.field == "speeds.primary")
        #expect(error.description == "speeds.primary: 400.0 is out of range: allowed 1.0 … 130.0 km/h")
        #expect(BadField.outOfRange("zoom", given: "25", allowed: 0...22).description.hasSuffix("allowed 0.0 … 22.0"), "no unit, no trailing space")
    }

    @Test func anOptionIsNamedAsItIsWritten() {
        let error = BadField.required("from").prefixed("--")
        #expect(error.field == "--from" && error.message == "is required")
        #expect(error.description == "--from: is required")
    }
}
