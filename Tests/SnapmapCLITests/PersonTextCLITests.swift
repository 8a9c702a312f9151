import Foundation
import Testing

/// The operator's commands keep people's text to the same rule as the API: a name and a place with a bidi override or a
/// line separator are usage errors naming the field, and change nothing.
@Suite("snapmap users add and locate: one text rule")
struct PersonTextCLITests {
    private let cli = CLITests()

    @Test func aHostileNameOrPlaceIsAUsageErrorNamingTheField() throws {
        let id = "txt-" + UUID().uuidString.prefix(8).lowercased()
        let refusedName = try cli.run("users", "add", id, "--name", "Mal\u{202E}lory")
        #expect(refusedName.status == 2 && refusedName.stdout.isEmpty && refusedName.stderr.contains("name: ")
                && refusedName.stderr.contains("U+202E (a bidi control)"), "\(refusedName.stderr)")
        #expect(try cli.run("users", "add", id, "--name", "Mallory").status == 0, "the refused add added nobody")
        let refusedPlace = try cli.run("locate", id, "--at", "40.71,-73.95", "--place", "Domino\u{2028}Park")
        #expect(refusedPlace.status == 2 && refusedPlace.stdout.isEmpty && refusedPlace.stderr.contains("place: ")
                && refusedPlace.stderr.contains("U+2028 (a line separator)"), "\(refusedPlace.stderr)")
    }
}
