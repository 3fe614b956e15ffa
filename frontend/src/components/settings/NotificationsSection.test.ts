import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";

vi.mock("../../lib/api", () => ({ api: {} }));
const { default: NotificationsSection } = await import("./NotificationsSection.svelte");
const { app } = await import("../../lib/state.svelte");

describe("NotificationsSection", () => {
  let comp: ReturnType<typeof mount> | undefined;
  afterEach(() => {
    if (comp) unmount(comp);
    comp = undefined;
    document.body.innerHTML = "";
    app.standing = {};
    app.notices = [];
  });

  it("keeps saying why notifications cannot be shown after the start check's toast has gone", () => {
    app.appNotice({ level: "info", key: "notifications", message: "Desktop notifications are unavailable: no D-Bus session bus" });
    app.notices = []; // the info toast went by itself
    comp = mount(NotificationsSection, { target: document.body });
    flushSync();
    const state = document.querySelector(".notif-state")!.textContent!;
    expect(state).toContain("Notifications cannot be shown here");
    expect(state).toContain("no D-Bus session bus");
    app.appNotice({ level: "info", key: "notifications", message: "" }); // the cause is gone
    flushSync();
    expect(document.querySelector(".notif-state")!.textContent).toContain("found nothing in the way");
  });
});
