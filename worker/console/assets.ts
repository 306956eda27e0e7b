import uplotScript from "uplot/dist/uPlot.iife.min.js";
import uplotStyle from "uplot/dist/uPlot.min.css";

/** Files the console's pages load from the worker itself (no CDN: the console's policy allows only its own origin). */
export const CONSOLE_ASSETS: Record<string, { body: string; type: string }> = {
  "/console/assets/uplot.js": { body: uplotScript, type: "text/javascript; charset=utf-8" },
  "/console/assets/uplot.css": { body: uplotStyle, type: "text/css; charset=utf-8" },
};

/**
 * The overview's charts: reads the page's data (`#overview-data`, JSON) and draws jobs a day by outcome and records a
 * day with uPlot. The same numbers are in the tables beside them, which is what a screen reader reads.
 */
export const OVERVIEW_CHART_SCRIPT = `
(() => {
  const data = JSON.parse(document.getElementById("overview-data").textContent);
  const days = data.days.map((d) => Date.parse(d + "T00:00:00+09:00") / 1000);
  const chart = (id, series, values) => {
    const el = document.getElementById(id);
    if (!el) return;
    const width = () => Math.min(el.clientWidth, 720);
    const plot = new uPlot({ width: width(), height: 220, series: [{}, ...series], axes: [{}, { size: 50 }], scales: { x: { time: true } }, legend: { live: false } }, [days, ...values], el);
    addEventListener("resize", () => plot.setSize({ width: width(), height: 220 }));
    el.dataset.drawn = "true";
  };
  chart("jobs-chart", [
    { label: "성공", stroke: "#1a7f37", fill: "rgba(26,127,55,0.12)" },
    { label: "실패", stroke: "#b42318", fill: "rgba(180,35,24,0.12)" },
    { label: "진행 중", stroke: "#0b3d91" },
  ], [data.succeeded, data.failed, data.inProgress]);
  chart("records-chart", [{ label: "수집한 레코드", stroke: "#0b3d91", fill: "rgba(11,61,145,0.12)" }], [data.records]);
})();`;
