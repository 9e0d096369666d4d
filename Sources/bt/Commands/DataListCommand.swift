import Backtest

extension Command {
    static let dataList = Command(
        path: ["data", "list"],
        help: EmbeddedAssets.dataListTXT,
        options: [.json]
    ) { args in
        let listing = try StoreListing(try args.openStore())
        if args.flag(.json) {
            Output.line(try StoreListingText.json(listing).serialized())
        } else if listing.isEmpty {
            Diagnostics.line("the store is empty; import data with 'bt data import'")
        } else {
            Output.write(StoreListingText.table(listing))
        }
    }
}
