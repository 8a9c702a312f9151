
/// The options of commands that lay out pins: the selected friend and the moment label times count from.
enum PinOptions {
    static let specs: [OptionSpec] = [
        .value("selected", "ID", "the selected friend's id (drawn first, with the yellow ring)"),
        .value("now", "ISO8601|scene", "the time labels count from (default: the real clock; \"scene\": the fixture's capture time)"),
    ]
}
