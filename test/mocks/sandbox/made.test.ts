/**
 * The data the sandbox makes, inside workerd through the whole run path (answers checked in
 * "enforce" mode), on the FIXTURE issue tracker whose members have examples and no enum:
 * each made member comes from its schema and document (example, format, bounds), a
 * date-time only where the schema says date-time, the id, the number and `Location` agree,
 * a URL on the document's server is on the deployment's origin, and the same request in a
 * fresh sandbox makes the same data.
 */
import { describe, expect, it } from "vitest";
import {
  FIXTURE_SANDBOX_COMPOSED_CONTRACT,
  FIXTURE_SANDBOX_ISSUES_CONTRACT,
} from "../../fixtures/sandbox-issues";
import { callerOf, sandboxApp } from "../../support/sandbox-app";

const issues = sandboxApp(FIXTURE_SANDBOX_ISSUES_CONTRACT);
const projects = sandboxApp(FIXTURE_SANDBOX_COMPOSED_CONTRACT);
const ISSUES = "/repos/fixture-o/fixture-r/issues";

async function created(call: ReturnType<typeof callerOf>, title: string) {
  const answer = await call(ISSUES, { method: "POST", body: { title } });
  expect(answer.status).toBe(201);
  return { body: (await answer.json()) as Record<string, unknown>, answer };
}

describe("the data the sandbox makes (FIXTURE issues)", () => {
  it("takes each server-set member from its examples, format and bounds, never a timestamp elsewhere", async () => {
    const { body } = await created(callerOf(issues), "First");
    expect(body).toMatchObject({
      state: "open",
      node_id: "FIXTURE_NODE_1",
      user: { login: "fixture-octo", gravatar_id: "" },
      comments: 0,
      score: 5,
    });
    // RFC 3339 §5.6, where the schema says date-time, and only there.
    expect(String(body.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    const timestamps = Object.entries(body).filter(([, v]) => /^\d{4}-\d\d-\d\dT/.test(String(v)));
    expect(timestamps.map(([name]) => name)).toEqual(["created_at"]);
  });

  it("numbers the id, the number and the Location alike (RFC 9110 §10.2.2)", async () => {
    const call = callerOf(issues);
    const first = await created(call, "First");
    const second = await created(call, "Second");
    expect([first.body.id, first.body.number, second.body.id, second.body.number]).toEqual([
      1, 1, 2, 2,
    ]);
    expect(second.answer.headers.get("location")).toBe(`${ISSUES}/2`);
    expect((await call(`${ISSUES}/2`)).status).toBe(200);
  });

  it("puts a URL of the document's server on the deployment's origin", async () => {
    const { body } = await created(callerOf(issues), "First");
    expect(body.labels_url).toBe("https://fixture.test/repos/o/r/issues/42/labels");
  });

  it("makes the same data for the same request in a fresh sandbox, the clock aside", async () => {
    const one = await created(callerOf(issues), "Same");
    const two = await created(callerOf(issues), "Same");
    expect({ ...one.body, created_at: 0 }).toEqual({ ...two.body, created_at: 0 });
  });

  it("lists what it made under the list's default filter (state=open)", async () => {
    const call = callerOf(issues);
    const { body } = await created(call, "Listed");
    const listed = await call(ISSUES);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([body]);
  });

  it("answers a missing issue with its 404's own example code", async () => {
    const missing = await callerOf(issues)(`${ISSUES}/9`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "not_found" });
  });
});

describe("a resource composed with allOf (FIXTURE projects)", () => {
  it("is placed, created, read and listed like any object", async () => {
    const call = callerOf(projects);
    const answer = await call("/fixture-projects", { method: "POST", body: { name: "Atlas" } });
    expect(answer.status).toBe(201);
    const project = (await answer.json()) as Record<string, unknown>;
    expect(project).toMatchObject({ name: "Atlas" });
    expect(String(project.id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await (await call(`/fixture-projects/${project.id}`)).json()).toEqual(project);
    expect(await (await call("/fixture-projects")).json()).toEqual([project]);
  });
});
