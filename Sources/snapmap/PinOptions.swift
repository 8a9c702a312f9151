
/// The options of commands that lay out pins: the selected friend, and the live view they come from.
enum PinOptions {
    static let specs: [OptionSpec] = [
        .value("selected", "ID", "the selected friend's id (drawn first, with the yellow ring)"),
    ] + LiveOptions.viewSpecs
}
