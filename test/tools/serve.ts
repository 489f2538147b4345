/**
 * Runs the built Worker (`npm run build` → dist/index.js) on `workerd serve` directly, the
 * runtime binary from the npm package, without wrangler's dev proxy in between. Used by the
 * load run and the browser check; the settings come from wrangler.toml.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { experimental_readRawConfig } from "wrangler";

export interface ServedWorker {
  readonly url: string;
  readonly pid: number;
  /** From spawning workerd to its first HTTP answer, in milliseconds (a cold start). */
  readonly startupMs: number;
  /** The workerd process's resident memory, in KiB (Linux /proc). */
  rssKiB(): number;
  stop(): Promise<void>;
}

const BUNDLE = resolve("dist/index.js");

/** A port on loopback no one listens on now, for a server the caller starts. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : fail()));
    });
  });
}

function capnpString(value: string): string {
  return JSON.stringify(value);
}

/**
 * The static assets wrangler.toml declares (`[assets]`), as workerd serves them without
 * wrangler: a read-only disk service, bound to the Worker under the binding's name.
 * Nothing when it declares none.
 */
export function assetsOf(wranglerToml: string): { services: string; bindings: string[] } {
  const raw = experimental_readRawConfig({ config: wranglerToml }).rawConfig as {
    assets?: { directory?: string; binding?: string };
  };
  const { directory, binding } = raw.assets ?? {};
  if (!directory || !binding) return { services: "", bindings: [] };
  const path = resolve(dirname(resolve(wranglerToml)), directory);
  return {
    services: `, (name = "assets", disk = (path = ${capnpString(path)}, writable = false))`,
    bindings: [`(name = ${capnpString(binding)}, service = "assets")`],
  };
}

/** The workerd config: one worker, one HTTP socket on loopback; `vars` override wrangler.toml's. */
function config(port: number, vars: Readonly<Record<string, string>> = {}): string {
  const raw = experimental_readRawConfig({ config: "wrangler.toml" }).rawConfig as {
    compatibility_date?: string;
    compatibility_flags?: string[];
    vars?: Record<string, string>;
  };
  const assets = assetsOf("wrangler.toml");
  const bindings = Object.entries({ ...raw.vars, ...vars }).map(
    ([name, value]) => `(name = ${capnpString(name)}, text = ${capnpString(String(value))})`,
  );
  bindings.push(...assets.bindings);
  const flags = (raw.compatibility_flags ?? []).map(capnpString);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)${assets.services}],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "index.js")],
  compatibilityDate = ${capnpString(raw.compatibility_date ?? "2026-05-01")},
  compatibilityFlags = [${flags.join(", ")}],
  bindings = [${bindings.join(", ")}],
);
`;
}

/**
 * `npm run build:contract` in the project at `dir`: what its Worker entry imports
 * (src/generated/, gitignored, so never in a copy) and its static assets, as a deploy's
 * `[build]` makes them (wrangler tells it the command: src/build/write.ts). `buildBundle`
 * below uses a config of its own, without that step.
 */
export function buildContractIn(dir: string): void {
  execFileSync("npm", ["run", "--silent", "build:contract"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, WRANGLER_COMMAND: "deploy" },
  });
}

/**
 * Builds a Worker from `main` with `wrangler deploy --dry-run --minify`, as a deploy would,
 * with `keepNames` when given (else wrangler's default); returns the bundle's path.
 */
export async function buildBundle(
  name: string,
  main: string,
  dir: string,
  keepNames?: boolean,
): Promise<string> {
  const config = join(dir, `${name}.toml`);
  const keep = keepNames === undefined ? "" : `keep_names = ${keepNames}\n`;
  writeFileSync(
    config,
    `name = "build-${name}"\nmain = ${JSON.stringify(main)}\ncompatibility_date = "2026-05-01"\nsend_metrics = false\n${keep}`,
  );
  const out = join(dir, `out-${name}`);
  await promisify(execFile)(
    "npx",
    ["wrangler", "deploy", "--dry-run", "--minify", "--outdir", out, "-c", config],
    { cwd: resolve(".") },
  );
  const entry = main.split("/").pop()?.replace(/\.ts$/, ".js") ?? "index.js";
  return join(out, entry);
}

export interface ServeOptions {
  /** The bundle to run; dist/index.js by default. */
  readonly bundle?: string;
  /** CPUs to pin workerd to, as taskset takes them (e.g. "0"), so a load generator can have the others. */
  readonly cpus?: string;
  /** Text bindings that replace wrangler.toml's vars of the same name. */
  readonly vars?: Readonly<Record<string, string>>;
}

export async function serveWorker(options: ServeOptions = {}): Promise<ServedWorker> {
  const bundle = options.bundle ?? BUNDLE;
  if (!existsSync(bundle)) throw new Error(`${bundle} does not exist: run npm run build first`);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "workerd-"));
  const file = join(dir, "config.capnp");
  // capnp embeds files relative to the config, so the bundle is copied beside it.
  copyFileSync(bundle, join(dir, "index.js"));
  writeFileSync(file, config(port, options.vars));
  const binary = createRequire(import.meta.url).resolve("workerd/bin/workerd");
  const [command, args] = options.cpus
    ? ["taskset", ["-c", options.cpus, binary, "serve", file]]
    : [binary, ["serve", file]];
  const spawned = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((done) => child.once("exit", done));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Any HTTP answer means the Worker is up; polled every 2 ms, so the cold start is exact
  // to about that.
  const deadline = Date.now() + 15_000;
  let startupMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}`);
    try {
      await (await fetch(url)).arrayBuffer();
      startupMs = performance.now() - spawned;
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error("workerd did not answer within 15 s");
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const pid = child.pid ?? -1;
  return {
    url,
    pid,
    startupMs,
    rssKiB: () => {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    },
    stop,
  };
}
