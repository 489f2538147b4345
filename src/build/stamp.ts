/**
 * Whether the build would write what it wrote last time: `wrangler dev` runs the build when
 * it starts and again as soon as its watcher is ready (wrangler 4's `[build]` with
 * `watch_dir`), and `npm test` runs it from its type check; for an imported API of hundreds
 * of operations each build takes seconds. The build reads the project's code under src/ (its
 * own output, src/generated/, aside), its dependencies' lockfile, wrangler.toml and whether
 * it makes the answers of operations without a handler; when none of these changed since a
 * build that succeeded, what it wrote stands.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The digest of everything the build reads, from the project at `root`. */
export function inputsDigest(root: string, unhandledAnswers: boolean): string {
  const hash = createHash("sha256").update(`unhandled answers: ${unhandledAnswers}\n`);
  const src = join(root, "src");
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replaceAll("\\", "/"))
    .filter((path) => !path.startsWith("src/generated/"));
  for (const path of [...files, "package-lock.json", "wrangler.toml"].sort()) {
    const file = join(root, path);
    hash.update(`${path}\n`);
    if (existsSync(file)) hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}

/** Whether the last build that succeeded read the same inputs (its stamp holds `digest`). */
export function unchanged(stampFile: string, digest: string): boolean {
  return existsSync(stampFile) && readFileSync(stampFile, "utf8") === digest;
}

/** Records a successful build's inputs. */
export function stamp(stampFile: string, digest: string): void {
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, digest);
}
