/**
 * The import's scratch copy (src/importer/stage.ts): how its steps' commands are run and
 * how a failed one is told. A command's output is never cut short (a served document of
 * megabytes once died silently in a buffer), and a failure is one line that names the
 * step, how its command ended and what it said: never an empty one. Each test runs a node
 * process, so this is the slow lane's; the refusals it reads are in stage.node.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ended, run } from "../../src/importer/stage";

const dir = mkdtempSync(join(tmpdir(), "stage-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const node = (code: string, out?: string) =>
  run(process.execPath, ["-e", code], dir, out === undefined ? {} : { out });

describe("a step's command", () => {
  it("keeps all it prints to its file, however large (3 MiB, over spawnSync's 1 MiB buffer)", async () => {
    const out = join(dir, "large.json");
    const ran = await node(`process.stdout.write("x".repeat(3 * 1024 * 1024))`, out);
    expect(ran).toMatchObject({ status: 0, signal: null });
    expect(readFileSync(out, "utf8").length).toBe(3 * 1024 * 1024);
  });

  it("that a signal stops is told so, and that it printed nothing", async () => {
    const ran = await node(`process.kill(process.pid, "SIGKILL")`);
    expect(ran).toMatchObject({ status: null, signal: "SIGKILL" });
    expect(ended("starting the Worker once", "node -e", ran)).toBe(
      "starting the Worker once: `node -e` was stopped by SIGKILL, printing nothing",
    );
  });

  it("whose own child a signal stops is told so (status 128 + the signal's number)", async () => {
    const ran = await node(
      `require("node:child_process").spawnSync(process.execPath, ["-e", "process.kill(process.pid, 'SIGKILL')"]); process.exit(137)`,
    );
    expect(ended("starting the Worker once", "npx tsx", ran)).toBe(
      "starting the Worker once: `npx tsx` exited with status 137 (a process it ran was stopped by SIGKILL), printing nothing",
    );
  });

  it("that exits with a status is told by its status and the last line it said", async () => {
    const ran = await node(`console.error("first\\nthe cause\\n"); process.exit(3)`);
    expect(ended("type-checking", "node -e", ran)).toBe(
      "type-checking: `node -e` exited with status 3: the cause",
    );
  });

  it("that cannot be run at all is told so", async () => {
    const ran = await run(join(dir, "no-such-command"), [], dir);
    expect(ran.status).toBeNull();
    expect(ended("formatting", "no-such-command", ran)).toMatch(
      /^formatting: `no-such-command` could not be run: .*no-such-command could not be run: .*ENOENT/,
    );
  });
});
