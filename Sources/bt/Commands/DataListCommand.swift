import Backtest

extension Command {
    static let dataList = Command(
        path: ["data", "list"],
        help: EmbeddedAssets.dataListTXT,
        options: [.json]
    ) { args in
        let store = try args.openStore()
        let series = try store.list()
        let books = try store.bookList()
        if args.flag(.json) {
            Output.line(StoreListingText.json(series: series, books: books).serialized())
        } else if series.isEmpty && books.isEmpty {
            Diagnostics.line("the store is empty; import data with 'bt data import'")
        } else {
            Output.write(StoreListingText.table(series: series, books: books))
        }
    }
}
