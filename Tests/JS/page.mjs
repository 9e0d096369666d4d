// Loads the report page's scripts for Node's test runner as the page runs them: concatenated
// in page order inside one strict-mode function (HTMLAssets.script), here returning the named
// top-level functions and constants instead of starting the page.
import { readFileSync } from "node:fs";
import vm from "node:vm";

const assets = new URL("../../Sources/Backtest/IO/Presentation/HTML/Assets/", import.meta.url);

/** Page order (HTMLAssets.scripts); pages.js is left out: it starts the page on load. */
export const SCRIPTS = ["core.js", "chart.js", "panels.js"];

export function assetText(name) { return readFileSync(new URL(name, assets), "utf8"); }

/** The page's scope: `page(["f64", "aggregate"])` gives those bindings. */
export function page(names) {
  const body = SCRIPTS.map(assetText).join("");
  const code = "(function () {\n\"use strict\";\n" + body + "\nreturn {" + names.join(", ") + "};\n})()";
  return vm.runInContext(code, vm.createContext({ atob, console }), { filename: "page.js" });
}

/** `{"f64": base64}` of the values, as bt's PageData.f64 writes it. */
export function f64JSON(values) { return { f64: Buffer.from(new Float64Array(values).buffer).toString("base64") }; }
