import Testing
@testable import VectorTiles

@Suite struct ProtobufWriterTests {
    /// The protocol buffers documentation's examples: 150 is 96 01, field 1 varint 150 is 08 96 01.
    @Test func varintsAndTagsAsTheSpecificationWritesThem() {
        var writer = ProtobufWriter()
        writer.varintField(1, 150)
        #expect(writer.bytes == [0x08, 0x96, 0x01])
        #expect([0, -1, 1, -2, 2_147_483_647, -2_147_483_648].map(ProtobufWriter.zigzag) == [0, 1, 2, 3, 4_294_967_294, 4_294_967_295])
    }
}
