/**
 * Paging as the document declares it (src/mocks/sandbox/items.ts `listAnswer`), a property
 * test (fast-check) over random collections and page sizes, for each style: offset and
 * limit, pages from 1 with a `Link` header (RFC 8288), a page envelope with a total, and an
 * opaque cursor with `has_more`. Walking the pages from the first must give every item once,
 * in order, and say at each boundary whether more follow.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type { Contract } from "../../../src/contract-language/contract";
import { defineContract } from "../../../src/contract-language/define-contract";
import { readOnly } from "../../../src/contract-language/schema";
import { numberFromText } from "../../../src/contract-language/text";
import { listAnswer } from "../../../src/mocks/sandbox/items";
import { planSandbox } from "../../../src/mocks/sandbox/place";
import type { SandboxRecords, StoredRecord } from "../../../src/mocks/sandbox/records";
import {
  FIXTURE_SANDBOX_PETS_CONTRACT,
  FIXTURE_SANDBOX_SHELVES_CONTRACT,
} from "../../fixtures/sandbox";
import { FIXTURE_SANDBOX_ISSUES_CONTRACT } from "../../fixtures/sandbox-issues";

const FixtureCard = z.object({ id: readOnly(z.int()), word: z.string() });
/** FIXTURE: a list paged by an opaque cursor, saying whether more follow. */
const FIXTURE_CURSOR_CONTRACT = defineContract({
  purpose: { title: "Fixture cards", summary: "A fixture service, for tests only." },
  resources: { FixtureCard },
  operations: {
    fixtureListCards: {
      method: "GET",
      path: "/fixture-cards",
      request: {
        query: z.object({
          limit: numberFromText(z._default(z.int().check(z.minimum(1), z.maximum(50)), 10)),
          starting_after: z.optional(z.string()),
        }),
      },
      responses: {
        200: {
          description: "Cards",
          content: {
            "application/json": z.object({
              data: z.array(FixtureCard),
              has_more: z.boolean(),
              next_cursor: z.nullable(z.string()),
            }),
          },
        },
      },
    },
  },
});

/** Records held in memory, in the order they were made (as the Durable Object lists them). */
function memoryRecords(count: number): SandboxRecords {
  const records: StoredRecord[] = Array.from({ length: count }, (_, i) => ({
    id: String(i + 1),
    scope: "",
    body: {
      id: i + 1,
      word: `w${i}`,
      name: `n${i}`,
      species: "cat",
      status: "available",
      tags: [],
      createdAt: "2026-01-01T00:00:00Z",
      title: `t${i}`,
      state: "open",
    },
    states: {},
    version: 1,
  }));
  return {
    list: async (_resource, { offset, limit }) => ({
      records: records.slice(offset, offset + limit),
      total: records.length,
    }),
  } as SandboxRecords;
}

type Style = {
  readonly name: string;
  readonly contract: Contract;
  readonly op: string;
  /** The query of the first page of `size` items, and of the page after `answer`. */
  readonly first: (size: number) => Record<string, unknown>;
  readonly next: (
    query: Record<string, unknown>,
    answer: { body: unknown; headers?: Record<string, string> },
  ) => Record<string, unknown> | undefined;
  readonly items: (body: unknown) => readonly { id: number }[];
};

const STYLES: readonly Style[] = [
  {
    name: "offset and limit (FIXTURE pets)",
    contract: FIXTURE_SANDBOX_PETS_CONTRACT,
    op: "fixtureListPets",
    first: (size) => ({ limit: size }),
    next: (query, { body }) =>
      (body as unknown[]).length < (query.limit as number)
        ? undefined
        : { ...query, offset: ((query.offset as number) ?? 0) + (query.limit as number) },
    items: (body) => body as { id: number }[],
  },
  {
    name: "pages from 1 with a Link header (FIXTURE issues)",
    contract: FIXTURE_SANDBOX_ISSUES_CONTRACT,
    op: "fixtureListIssues",
    first: (size) => ({ per_page: size, page: 1, state: "open" }),
    next: (query, { headers }) => {
      const next = /<([^>]+)>; rel="next"/.exec(headers?.link ?? "")?.[1];
      if (next === undefined) return undefined;
      return { ...query, page: Number(new URL(next).searchParams.get("page")) };
    },
    items: (body) => body as { id: number }[],
  },
  {
    name: "a page envelope with a total (FIXTURE shelves)",
    contract: FIXTURE_SANDBOX_SHELVES_CONTRACT,
    op: "fixtureListBooks",
    first: (size) => ({ size, page: 1 }),
    next: (query, { body }) => {
      const { total, page } = body as { total: number; page: number };
      return page * (query.size as number) >= total ? undefined : { ...query, page: page + 1 };
    },
    items: (body) => (body as { items: { id: number }[] }).items,
  },
  {
    name: "an opaque cursor with has_more (FIXTURE cards)",
    contract: FIXTURE_CURSOR_CONTRACT,
    op: "fixtureListCards",
    first: (size) => ({ limit: size }),
    next: (query, { body }) => {
      const { has_more, next_cursor } = body as { has_more: boolean; next_cursor: string | null };
      expect(has_more).toBe(next_cursor !== null);
      return has_more ? { ...query, starting_after: next_cursor } : undefined;
    },
    items: (body) => (body as { data: { id: number }[] }).data,
  },
];

describe("paging in the sandbox, at every boundary", () => {
  for (const style of STYLES)
    it(`gives every item once, in order, then says none follow: ${style.name}`, async () => {
      const route = planSandbox(style.contract).routes.get(style.op);
      expect(route?.place).toBe("list");
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 23 }),
          fc.integer({ min: 1, max: 9 }),
          async (count, size) => {
            const records = memoryRecords(count);
            const seen: number[] = [];
            let query: Record<string, unknown> | undefined = style.first(size);
            for (let pages = 0; query && pages <= count + 1; pages += 1) {
              const url = `https://fixture.test/x?${new URLSearchParams(query as Record<string, string>)}`;
              const answer = (await listAnswer(route as never, records, query, undefined, url)) as {
                body: unknown;
                headers?: Record<string, string>;
              };
              const items = style.items(answer.body);
              expect(items.length).toBeLessThanOrEqual(size);
              seen.push(...items.map((item) => item.id));
              query = style.next(query, answer);
            }
            expect(seen).toEqual(Array.from({ length: count }, (_, i) => i + 1));
            // The last page said none follow: the walk ended there, not at its bound.
            expect(query).toBeUndefined();
          },
        ),
        { numRuns: 60, seed: 41 },
      );
    });
});
