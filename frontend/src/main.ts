import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { start } from "./lib/state.svelte";

const app = mount(App, { target: document.getElementById("app")! });
void start();

export default app;
