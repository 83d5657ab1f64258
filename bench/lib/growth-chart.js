/**
 * The engine bench's growth chart (docs/engine-growth.svg): requests and wall time against the
 * deployment's resources, ours beside the provider that does nothing, `pulumi up` and `pulumi refresh`.
 * Plain SVG, written as text; both axes logarithmic, so that linear growth is a line of slope 1 (the
 * dotted guide) whatever the scale.
 */

const TITLE = "The engine bench: HTTP requests and wall time against the resources of a deployment";
const WIDTH = 440;
const HEIGHT = 300;
const MARGIN = { left: 64, right: 16, top: 36, bottom: 44 };
const SERIES = [
  { provider: "ours", phase: "up", label: "ours, pulumi up", color: "#1f6feb", dash: "" },
  { provider: "ours", phase: "refresh", label: "ours, pulumi refresh", color: "#1f6feb", dash: "6 4" },
  { provider: "noop", phase: "up", label: "does nothing, pulumi up", color: "#9a6700", dash: "" },
  {
    provider: "noop",
    phase: "refresh",
    label: "does nothing, pulumi refresh",
    color: "#9a6700",
    dash: "6 4",
  },
];

const xmlText = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const fmt = (n) => (n >= 1000 ? `${Number((n / 1000).toPrecision(3))}k` : String(Math.round(n)));

/** Powers of ten from below `min` to above `max`, for a logarithmic axis. */
function decades(min, max) {
  const out = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
  return out;
}

/** One panel: `pick(point)` gives `{ ours: { up, refresh }, noop: {…} }`; zeros are left out (log scale). */
function panel(points, pick, title, x0) {
  const w = WIDTH - MARGIN.left - MARGIN.right;
  const h = HEIGHT - MARGIN.top - MARGIN.bottom;
  const xs = points.map((p) => p.resources);
  const ys = points.flatMap((p) => SERIES.map((s) => pick(p)[s.provider][s.phase])).filter((y) => y > 0);
  const xTicks = decades(Math.min(...xs), Math.max(...xs));
  const yTicks = decades(Math.min(...ys), Math.max(...ys));
  const lx = (x) => Math.log10(x);
  const [xmin, xmax] = [lx(xTicks[0]), lx(xTicks[xTicks.length - 1])];
  const [ymin, ymax] = [lx(yTicks[0]), lx(yTicks[yTicks.length - 1])];
  const X = (x) => x0 + MARGIN.left + ((lx(x) - xmin) / (xmax - xmin)) * w;
  const Y = (y) => MARGIN.top + h - ((lx(y) - ymin) / (ymax - ymin)) * h;
  const parts = [`<text x="${x0 + MARGIN.left}" y="20" font-weight="bold">${xmlText(title)}</text>`];
  for (const t of xTicks) {
    parts.push(`<line x1="${X(t)}" y1="${MARGIN.top}" x2="${X(t)}" y2="${MARGIN.top + h}" stroke="#ddd"/>`);
    parts.push(`<text x="${X(t)}" y="${MARGIN.top + h + 16}" text-anchor="middle">${fmt(t)}</text>`);
  }
  for (const t of yTicks) {
    parts.push(
      `<line x1="${x0 + MARGIN.left}" y1="${Y(t)}" x2="${x0 + MARGIN.left + w}" y2="${Y(t)}" stroke="#ddd"/>`,
    );
    parts.push(`<text x="${x0 + MARGIN.left - 6}" y="${Y(t) + 4}" text-anchor="end">${fmt(t)}</text>`);
  }
  parts.push(
    `<text x="${x0 + MARGIN.left + w / 2}" y="${HEIGHT - 8}" text-anchor="middle">resources in the deployment</text>`,
  );
  // Linear growth from the first point of ours' up: where a provider that scales linearly would be.
  const first = points[0];
  const base = pick(first).ours.up;
  if (base > 0) {
    const last = points[points.length - 1];
    const linear = base * (last.resources / first.resources);
    parts.push(
      `<line x1="${X(first.resources)}" y1="${Y(base)}" x2="${X(last.resources)}" y2="${Y(Math.min(linear, 10 ** ymax))}" stroke="#888" stroke-dasharray="1 3"/>`,
    );
  }
  for (const s of SERIES) {
    const at = points.map((p) => [p.resources, pick(p)[s.provider][s.phase]]).filter(([, y]) => y > 0);
    if (at.length === 0) continue;
    const d = at.map(([x, y], i) => `${i === 0 ? "M" : "L"}${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(" ");
    parts.push(
      `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`,
    );
    for (const [x, y] of at) {
      parts.push(`<circle cx="${X(x).toFixed(1)}" cy="${Y(y).toFixed(1)}" r="3" fill="${s.color}"/>`);
      parts.push(
        `<text x="${(X(x) + 5).toFixed(1)}" y="${(Y(y) - 5).toFixed(1)}" fill="${s.color}">${fmt(y)}</text>`,
      );
    }
  }
  return parts.join("\n");
}

/**
 * The chart as SVG text. `points`: one per deployment, `{ resources, requests, wallMs }`, the last two
 * `{ ours: { up, refresh }, noop: { up, refresh } }`.
 */
function growthChart(points) {
  const legend = SERIES.map(
    (s, i) =>
      `<line x1="${20 + i * 220}" y1="${HEIGHT + 14}" x2="${44 + i * 220}" y2="${HEIGHT + 14}" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/><text x="${50 + i * 220}" y="${HEIGHT + 18}">${xmlText(s.label)}</text>`,
  ).join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * WIDTH}" height="${HEIGHT + 52}" font-family="sans-serif" font-size="11" role="img" aria-label="${TITLE}">
<title>${TITLE}</title>
<rect width="100%" height="100%" fill="white"/>
${panel(points, (p) => p.requests, "HTTP requests (does nothing: none)", 0)}
${panel(points, (p) => p.wallMs, "wall time, ms", WIDTH)}
${legend}
<text x="20" y="${HEIGHT + 40}" fill="#555">Both axes logarithmic; the dotted line is linear growth from ours' pulumi up at the smallest size. Written by node bench/run.js engine-large.</text>
</svg>
`;
}

module.exports = { growthChart };
