/**
 * The shortcut for part 4's 501 and health (src/http/fast-path.ts) must give exactly what
 * the routes give: same status, same headers, same bytes. Compared request by request with
 * the app built without it. (Once part 4 declares operations there is no shortcut.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { emptyApp } from "../support/fixture-app";

const ID = { "x-request-id": "fixture-request-1" };
const CASES: [string, RequestInit?][] = [
  ["/fixture-anything"],
  ["/fixture-anything?q=1", { method: "HEAD" }],
  ["/", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
  ["/fixture/a/b", { method: "OPTIONS" }],
  ["/fixture", { method: "DELETE" }],
  ["/_service/health"],
  ["/_service/health", { method: "HEAD" }],
  ["/%5Fservice/health"],
  ["/_service/health", { method: "DELETE" }],
  ["/_service%2Fhealth"],
  ["/_service"],
  ["/_servicex/health"],
  ["/fixture-widgets?limit=2"],
];

async function snapshot(res: Response) {
  return { status: res.status, headers: [...res.headers], body: await res.text() };
}

describe.each([
  ["a contract that declares nothing", (fastPath: boolean) => emptyApp({ fastPath })],
])("%s: the shortcut answers exactly as the routes", (_label, build) => {
  const fast = build(true);
  const routed = build(false);
  it.each(CASES)("%s %o", async (path, init) => {
    const request = () =>
      new Request(`https://fixture.test${path}`, {
        ...init,
        headers: { ...ID, ...init?.headers },
      });
    const a = await snapshot(await fast.fetch(request()));
    const b = await snapshot(await routed.fetch(request()));
    expect(a).toEqual(b);
  });
});

describe("while the deployment turns CORS on, the shortcut steps aside for the routes", () => {
  const bindings = { ...env, CORS_ALLOWED_ORIGINS: "https://app.fixture.test" };
  const fast = emptyApp({ fastPath: true });
  const routed = emptyApp({ fastPath: false });
  it.each(CASES)("%s %o: the same answer, with the CORS grant", async (path, init) => {
    const request = () =>
      new Request(`https://fixture.test${path}`, {
        ...init,
        headers: { ...ID, origin: "https://app.fixture.test", ...init?.headers },
      });
    const a = await snapshot(await fast.fetch(request(), bindings));
    const b = await snapshot(await routed.fetch(request(), bindings));
    expect(a).toEqual(b);
    expect(a.headers).toContainEqual(["access-control-allow-origin", "https://app.fixture.test"]);
  });
});
