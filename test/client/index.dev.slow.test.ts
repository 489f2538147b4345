/**
 * The typed client over real HTTP: the FIXTURE vocabulary Worker (test/tools/fixture-worker.ts)
 * on `wrangler dev`, as a developer runs a Worker, called through `fetch` with a base URL,
 * every answer checked against the contract. The rotated key is given as a `--var` for this
 * run only; nothing is written to `.dev.vars`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/client";
import {
  FIXTURE_JWT_VARS,
  FIXTURE_ROTATED_SECRETS,
  FIXTURE_VOCABULARY_CONTRACT,
} from "../fixtures/vocabulary";
import { freePort } from "../tools/serve";

let dev: ChildProcess | undefined;
let base = "";

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const vars = { ...FIXTURE_ROTATED_SECRETS, ...FIXTURE_JWT_VARS, RESPONSE_VALIDATION: "enforce" };
  mkdirSync("test/artifacts", { recursive: true });
  const log = openSync("test/artifacts/client-wrangler-dev.log", "w");
  dev = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "test/tools/fixture-worker.ts",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    ],
    { detached: true, stdio: ["ignore", log, log] },
  );
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/_service/health`)).ok) return;
    } catch {}
    if (Date.now() > deadline)
      throw new Error("wrangler dev did not start (test/artifacts/client-wrangler-dev.log)");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 180_000);

afterAll(() => {
  try {
    if (dev?.pid) process.kill(-dev.pid, "SIGTERM");
  } catch {}
});

describe("the typed client against wrangler dev, over real HTTP", () => {
  it("sends each kind of request and reads each kind of answer the contract allows", async () => {
    const api = createClient(FIXTURE_VOCABULARY_CONTRACT, {
      baseUrl: base,
      credentials: { fixtureRotated: FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY },
      checkAnswers: true,
    });
    expect(await api.fixtureCreatePet({ body: { name: "Rex" } })).toMatchObject({
      status: 201,
      body: { id: "p1", name: "Rex" },
    });
    expect(
      await api.fixtureGetPet({ params: { petId: "p7" } }, { accept: "text/plain" }),
    ).toMatchObject({ status: 200, mediaType: "text/plain", body: "pet p7" });
    expect(await api.fixtureForm({ body: { name: "Rex", tags: ["a", "b"] } })).toMatchObject({
      status: 200,
      body: { value: { name: "Rex", tags: ["a", "b"] } },
    });
    const invalid = await api.fixtureCreatePet({ body: { name: "" } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reads the 401 of a call without the credential (RFC 9110 §11.6.1)", async () => {
    const anonymous = createClient(FIXTURE_VOCABULARY_CONTRACT, {
      baseUrl: base,
      checkAnswers: true,
    });
    const answer = await anonymous.fixtureLegacyPet({ params: { petId: "p1" } });
    expect(answer.status).toBe(401);
    if (answer.status === 401) expect(answer.body.requestId).toBeTruthy();
  });
});
