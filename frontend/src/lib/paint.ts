// The splash of index.html goes once the app is mounted, and the window's
// paint timings go to the app's log (docs/app.md#window-size-and-splash).
import type { WindowPaint } from "./types_settings";

/** paintTimings reads the browser's paint entries; mounted is performance.now() after the app's first frame. */
export function paintTimings(perf: Pick<Performance, "getEntriesByType">, mounted: number): WindowPaint {
  const at = (name: string) => Math.round(perf.getEntriesByType("paint").find((e) => e.name === name)?.startTime ?? 0);
  const nav = perf.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  return { html_parsed_ms: Math.round(nav?.domInteractive ?? 0), first_paint_ms: at("first-paint"), first_contentful_paint_ms: at("first-contentful-paint"), mounted_ms: Math.round(mounted) };
}

/**
 * endSplash removes the splash after the app's first frame and reports
 * the timings to report (api.painted); a report that fails is dropped
 * (the log is the only place it goes).
 */
export function endSplash(doc: Document, report: (p: WindowPaint) => Promise<unknown>) {
  requestAnimationFrame(() => {
    doc.getElementById("splash")?.remove();
    void report(paintTimings(performance, performance.now())).catch(() => {});
  });
}
