/**
 * The benchmark's report: markdown tables (figures, ratios, targets) and an SVG bar chart of
 * the throughput ratios, both from one run's results.
 */
import type { Results, Scenario } from "./run";
import { scaleTables } from "./scale-report";
import { targets } from "./targets";
import { verdictWord } from "./verdict";

export { targets };

const KIB = 1024;
const kib = (bytes: number) => (bytes / KIB).toFixed(1);
const x = (ratio: number | undefined) =>
  ratio === undefined || !Number.isFinite(ratio) ? "–" : `${ratio.toFixed(2)}×`;

function throughputRows(
  r: Results,
  scenario: Scenario,
  baselines: readonly [string, string][],
  cpuBaselines: readonly [string, string][] = [],
): string[] {
  const rows: string[] = [];
  for (const entry of Object.values(r.variants)) {
    const load = entry.load[scenario];
    if (!load) continue;
    const ratios = baselines.map(([key]) => x(entry.ratios[`${scenario}:${key}`]));
    const cpuRatios = cpuBaselines.map(([key]) => x(entry.cpuRatios?.[`${scenario}:${key}`]));
    rows.push(
      `| ${entry.label} | ${load.rps} | ${load.p50} | ${load.p99} | ${ratios.join(" | ")} | ${entry.cpuMicros[scenario] ?? "–"} | ${[...cpuRatios, entry.wallMicros?.[scenario] ?? "–"].join(" | ")} |`,
    );
  }
  const head = baselines.map(([, label]) => `vs ${label}`).join(" | ");
  const cpuHead = cpuBaselines.map(([, label]) => `CPU vs ${label} | `).join("");
  return [
    `| variant | req/s | p50 ms | p99 ms | ${head} | CPU µs/req | ${cpuHead}wall µs/req |`,
    `| --- | ---: | ---: | ---: | ${baselines.map(() => "---:").join(" | ")} | ---: | ${cpuBaselines.map(() => "---: | ").join("")}---: |`,
    ...rows,
  ];
}

/** When, where, how long, and how the variants were built. */
function settingsLine(r: Results): string {
  const s = r.settings;
  const keep = `keep_names = ${r.build.serviceKeepNames}`;
  const builds = r.build.sameBuild
    ? `Every variant built with this service's settings (\`--minify\`, ${keep}).`
    : `This service's variants built with its wrangler.toml (\`--minify\`, ${keep}), the others with wrangler's defaults and \`--minify\`, as their own projects would deploy.`;
  return `Measured ${r.date.slice(0, 10)} on ${r.machine}. ${builds} ${s.rounds} rounds of ${s.seconds} s per figure at ${s.connections} connections (autocannon on loopback, workerd serve), scenario by scenario with the variants in alternating order; medians over rounds, ratios taken within each round. Cold start: median of ${s.coldStarts} spawns. CPU: an in-process loop of ${s.cpuLoop} requests inside workerd, framed by workerd's process CPU time (schedstat). Start-up limits scale with bare Hono's own cold start: + N ms where it takes 43 ms, else N/43 of it; a start is met only when both its wall clock and workerd's CPU time over it are within that allowance over bare Hono's. Response check: \`${r.responseValidation}\`.`;
}

function targetsTable(r: Results): string[] {
  return [
    "| target | limit | measured (median) | middle half of rounds | verdict |",
    "| --- | --- | --- | --- | --- |",
    ...targets(r).map(
      (t) =>
        `| ${t.text} | ${t.limit ?? "–"} | ${t.measured} | ${t.spread ?? "–"} | ${t.met === false ? "**MISS**" : verdictWord(t.met)} |`,
    ),
  ];
}

/** The settings and the targets alone (the bench README's section for a `--same-build` run). */
export function renderSummary(r: Results): string {
  return [settingsLine(r), "", ...targetsTable(r), ""].join("\n");
}

export function renderMarkdown(r: Results): string {
  return [
    settingsLine(r),
    "",
    ...(Object.keys(r.variants).length > 0 ? mainTables(r) : []),
    ...(r.scale ? scaleTables(r.scale) : []),
    "Targets:",
    "",
    ...targetsTable(r),
    "",
  ].join("\n");
}

/** The main section's tables: every variant's size and start, then each scenario's figures. */
function mainTables(r: Results): string[] {
  return [
    "| variant | bundle (min) | gzip | cold start ms | its CPU ms | RSS before → after the rounds, KiB |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...Object.values(r.variants).map(
      (v) =>
        `| ${v.label} | ${kib(v.bundleRaw)} KiB | ${kib(v.bundleGzip)} KiB | ${v.coldStartMs.toFixed(1)} | ${v.coldStartCpuMs ?? "–"} | ${v.rssKiB.before} → ${v.rssKiB.after} (${v.rssKiB.growthPercent}%) |`,
    ),
    "",
    "Placeholder answer (`GET` outside `/_service`: 501):",
    "",
    ...throughputRows(r, "placeholder", [
      ["bare-fetch", "bare Worker"],
      ["hono-stock", "Hono + stock mw"],
    ]),
    "",
    "Health (`GET /_service/health`: 200):",
    "",
    ...throughputRows(r, "health", [
      ["bare-fetch", "bare Worker"],
      ["hono-stock", "Hono + stock mw"],
    ]),
    "",
    "Validated JSON `POST` (201):",
    "",
    ...throughputRows(
      r,
      "post",
      [
        ["zod-openapi", "@hono/zod-openapi"],
        ["hono-zod", "Hono + zod"],
        ["zod-openapi-platform", "reference (same headers)"],
      ],
      [
        ["hono-zod", "Hono + zod"],
        ["zod-openapi-platform", "reference"],
      ],
    ),
    "",
    "The reference row is @hono/zod-openapi with this service's platform middleware: the same validation library and the same request id and OWASP headers on every answer. Its distance from plain @hono/zod-openapi is what those headers cost; this service's ratio to it compares like with like. The ceiling row is a bare fetch handler that validates nothing but sends the same headers: no variant that sends them can do better, so its ratios bound what the POST targets can reach. CPU µs/req is workerd's CPU time over the in-process loop, per request; wall µs/req is the same loop timed by the probe between two timer turns; CPU ratios are taken within each round, then the median.",
    "",
  ];
}

/** A horizontal bar chart of each variant's req/s relative to its scenario's baseline. */
export function renderChart(r: Results): string {
  const bars: { group: string; label: string; ratio: number }[] = [];
  for (const [scenario, baseline] of [
    ["placeholder", "bare-fetch"],
    ["health", "bare-fetch"],
    ["post", "hono-zod"],
  ] as const) {
    for (const v of Object.values(r.variants)) {
      const ratio = v.ratios[`${scenario}:${baseline}`];
      if (ratio !== undefined) bars.push({ group: scenario, label: v.label, ratio });
    }
  }
  const width = 760;
  const left = 300;
  const barHeight = 18;
  const gap = 6;
  const scale = (width - left - 60) / Math.max(1.2, ...bars.map((b) => b.ratio));
  let y = 40;
  let lastGroup = "";
  const parts: string[] = [];
  for (const bar of bars) {
    if (bar.group !== lastGroup) {
      const title =
        bar.group === "post"
          ? "validated POST, vs Hono + zod"
          : `${bar.group}, vs bare Worker fetch`;
      parts.push(`<text x="10" y="${y + 12}" font-weight="bold">${title}</text>`);
      y += barHeight + gap;
      lastGroup = bar.group;
    }
    const w = Math.max(1, bar.ratio * scale);
    const shipped = bar.label.startsWith("this service");
    parts.push(
      `<text x="${left - 8}" y="${y + 13}" text-anchor="end">${bar.label}</text>`,
      `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${shipped ? "#15803d" : "#64748b"}"/>`,
      `<text x="${(left + w + 6).toFixed(1)}" y="${y + 13}">${bar.ratio.toFixed(2)}×</text>`,
    );
    y += barHeight + gap;
  }
  const one = left + scale;
  parts.push(
    `<line x1="${one.toFixed(1)}" y1="30" x2="${one.toFixed(1)}" y2="${y}" stroke="#b45309" stroke-dasharray="4 3"/>`,
  );
  const title = `Requests/s relative to the baseline (median of within-round ratios), ${r.date.slice(0, 10)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${y + 20}" font-family="system-ui, sans-serif" font-size="12">
<title>${title}</title>
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="20" font-size="14" font-weight="bold">${title}</text>
${parts.join("\n")}
</svg>
`;
}
