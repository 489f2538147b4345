/**
 * The benchmark's report: markdown tables (figures, ratios, targets) and an SVG bar chart of
 * the throughput ratios, both from one run's results.
 */
import type { Results, Scenario } from "./run";

const KIB = 1024;
const kib = (bytes: number) => (bytes / KIB).toFixed(1);
const x = (ratio: number | undefined) => (ratio === undefined ? "–" : `${ratio.toFixed(2)}×`);

interface Target {
  readonly text: string;
  readonly measured: string;
  /** For a ratio: the middle half of the rounds' ratios, so a verdict near its threshold reads as such. */
  readonly spread?: string;
  /** Undefined for a reference figure that is not a target. */
  readonly met: boolean | undefined;
}

type Entry = Results["variants"][string];

/** The first to third quartile of a ratio over the rounds, e.g. "1.10×–1.27×". */
function spreadOf(entry: Entry | undefined, ratio: string): string | undefined {
  const spread = entry?.ratioSpread?.[ratio];
  return spread ? `${x(spread[0])}–${x(spread[1])}` : undefined;
}

export function targets(r: Results): Target[] {
  const v = r.variants;
  const shipped = v.shipped;
  const bareHono = v["bare-hono"];
  const op = v["service-op"];
  if (!shipped || !bareHono || !op) return [];
  const list: Target[] = [
    {
      text: "shipped bundle ≤ 16 KiB gzip",
      measured: `${kib(shipped.bundleGzip)} KiB`,
      met: shipped.bundleGzip <= 16 * KIB,
    },
    {
      text: "cold start ≤ bare Hono + 3 ms",
      measured: `${shipped.coldStartMs.toFixed(1)} ms vs ${bareHono.coldStartMs.toFixed(1)} ms (${(shipped.coldStartMs - bareHono.coldStartMs).toFixed(1)} ms)`,
      met: shipped.coldStartMs <= bareHono.coldStartMs + 3,
    },
  ];
  for (const s of ["placeholder", "health"] as const) {
    const vsBare = shipped.ratios[`${s}:bare-fetch`] ?? 0;
    const vsStock = shipped.ratios[`${s}:hono-stock`] ?? 0;
    list.push(
      {
        text: `${s}: ≥ 0.75× bare Worker req/s`,
        measured: x(vsBare),
        spread: spreadOf(shipped, `${s}:bare-fetch`),
        met: vsBare >= 0.75,
      },
      {
        text: `${s}: ≥ 1.2× Hono + stock middleware req/s`,
        measured: x(vsStock),
        spread: spreadOf(shipped, `${s}:hono-stock`),
        met: vsStock >= 1.2,
      },
    );
  }
  const ceiling = v["post-ceiling"];
  const vsOpenapi = op.ratios["post:zod-openapi"] ?? 0;
  const vsZod = op.ratios["post:hono-zod"] ?? 0;
  list.push(
    {
      text: "validated POST: ≥ 1.0× @hono/zod-openapi req/s",
      measured: x(vsOpenapi),
      spread: spreadOf(op, "post:zod-openapi"),
      met: vsOpenapi >= 1,
    },
    {
      text: "validated POST: ≥ 0.8× Hono + zod req/s",
      measured: x(vsZod),
      spread: spreadOf(op, "post:hono-zod"),
      met: vsZod >= 0.8,
    },
    {
      text: "validated POST vs the same-headers reference (context, not a target)",
      measured: x(op.ratios["post:zod-openapi-platform"]),
      spread: spreadOf(op, "post:zod-openapi-platform"),
      met: undefined,
    },
    {
      text: "ceiling, no validation but the same headers: vs @hono/zod-openapi / vs Hono + zod (context: the most any variant with these headers reaches)",
      measured: `${x(ceiling?.ratios["post:zod-openapi"])} / ${x(ceiling?.ratios["post:hono-zod"])}`,
      met: undefined,
    },
    memoryTarget(r.longRun),
  );
  const imported = v.imported;
  if (imported)
    list.push(
      {
        text: "imported document (about 10 operations, webhooks, security): bundle ≤ 40 KiB gzip",
        measured: `${kib(imported.bundleGzip)} KiB`,
        met: imported.bundleGzip <= 40 * KIB,
      },
      {
        text: "imported document: cold start ≤ bare Hono + 5 ms",
        measured: `${imported.coldStartMs.toFixed(1)} ms vs ${bareHono.coldStartMs.toFixed(1)} ms (${(imported.coldStartMs - bareHono.coldStartMs).toFixed(1)} ms)`,
        met: imported.coldStartMs <= bareHono.coldStartMs + 5,
      },
    );
  return list;
}

/** The memory target, judged on the second half of the shipped Worker's continuous run. */
function memoryTarget(run: Results["longRun"]): Target {
  const text = `workerd RSS grows < 10% over the second half of a ${run?.seconds ?? "–"} s continuous run (shipped)`;
  if (!run) return { text, measured: "not measured", met: false };
  const { rssKiB, wholeRun } = run;
  return {
    text,
    measured: `${rssKiB.growthPercent}% (${rssKiB.before} → ${rssKiB.after} KiB; whole run ${wholeRun.growthPercent}%, ${run.requests} requests)`,
    met: rssKiB.growthPercent < 10 && run.unexpected === 0,
  };
}

function throughputRows(
  r: Results,
  scenario: Scenario,
  baselines: readonly [string, string][],
): string[] {
  const rows: string[] = [];
  for (const entry of Object.values(r.variants)) {
    const load = entry.load[scenario];
    if (!load) continue;
    const ratios = baselines.map(([key]) => x(entry.ratios[`${scenario}:${key}`]));
    rows.push(
      `| ${entry.label} | ${load.rps} | ${load.p50} | ${load.p99} | ${ratios.join(" | ")} | ${entry.cpuMicros[scenario] ?? "–"} |`,
    );
  }
  const head = baselines.map(([, label]) => `vs ${label}`).join(" | ");
  return [
    `| variant | req/s | p50 ms | p99 ms | ${head} | CPU µs/req |`,
    `| --- | ---: | ---: | ---: | ${baselines.map(() => "---:").join(" | ")} | ---: |`,
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
  return `Measured ${r.date.slice(0, 10)} on ${r.machine}. ${builds} ${s.rounds} rounds of ${s.seconds} s per figure at ${s.connections} connections (autocannon on loopback, workerd serve), scenario by scenario with the variants in alternating order; medians over rounds, ratios taken within each round. Cold start: median of ${s.coldStarts} spawns. CPU: an in-process loop of ${s.cpuLoop} requests inside workerd. Response check: \`${r.responseValidation}\`.`;
}

function targetsTable(r: Results): string[] {
  return [
    "| target | measured (median) | middle half of rounds | met |",
    "| --- | --- | --- | --- |",
    ...targets(r).map(
      (t) =>
        `| ${t.text} | ${t.measured} | ${t.spread ?? "–"} | ${t.met === undefined ? "–" : t.met ? "yes" : "**no**"} |`,
    ),
  ];
}

/** The settings and the targets alone (the bench README's section for a `--same-build` run). */
export function renderSummary(r: Results): string {
  return [settingsLine(r), "", ...targetsTable(r), ""].join("\n");
}

export function renderMarkdown(r: Results): string {
  const lines = [
    settingsLine(r),
    "",
    "| variant | bundle (min) | gzip | cold start ms | RSS before → after the rounds, KiB |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...Object.values(r.variants).map(
      (v) =>
        `| ${v.label} | ${kib(v.bundleRaw)} KiB | ${kib(v.bundleGzip)} KiB | ${v.coldStartMs.toFixed(1)} | ${v.rssKiB.before} → ${v.rssKiB.after} (${v.rssKiB.growthPercent}%) |`,
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
    ...throughputRows(r, "post", [
      ["zod-openapi", "@hono/zod-openapi"],
      ["hono-zod", "Hono + zod"],
      ["zod-openapi-platform", "reference (same headers)"],
    ]),
    "",
    "The reference row is @hono/zod-openapi with this service's platform middleware: the same validation library and the same request id and OWASP headers on every answer. Its distance from plain @hono/zod-openapi is what those headers cost; this service's ratio to it compares like with like. The ceiling row is a bare fetch handler that validates nothing but sends the same headers: no variant that sends them can do better, so its ratios bound what the POST targets can reach.",
    "",
    "Targets:",
    "",
    ...targetsTable(r),
    "",
  ];
  return lines.join("\n");
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
