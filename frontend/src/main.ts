import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { start } from "./lib/state.svelte";
import { theme } from "./lib/theme";
import { endSplash } from "./lib/paint";
import { api } from "./lib/api";

theme.restore(); // before the first paint; start() applies the saved one

const app = mount(App, { target: document.getElementById("app")! });
void start();
endSplash(document, api.painted);

export default app;
