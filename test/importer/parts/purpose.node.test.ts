/**
 * Part 1 (src/importer/parts/purpose.ts) and part 9's current version
 * (src/importer/parts/versions.ts), imported from a FIXTURE document's info, tags, servers and
 * externalDocs, and served by the real app. Every document here is a FIXTURE.
 */
import { describe, expect, it } from "vitest";
import { findingLines, importCase, served } from "../../support/import-case";

describe("purpose (part 1) and versioning (part 9)", () => {
  it("reads info, tags, servers and externalDocs as part 1 and info.version as part 9; says what it leaves out", async () => {
    const c = await importCase("purpose", {
      openapi: "3.1.0",
      info: {
        title: "FIXTURE purpose",
        summary: "FIXTURE summary",
        description: "FIXTURE description",
        termsOfService: "https://fixture.test/terms",
        contact: { name: "FIXTURE", email: "fixture@fixture.test", url: "https://fixture.test" },
        license: { name: "MIT", identifier: "MIT" },
        version: "4.5.6",
        "x-logo": { url: "https://fixture.test/logo.png" },
      },
      servers: [
        {
          url: "https://{env}.fixture.test",
          variables: { env: { default: "api", enum: ["api", "sandbox"] } },
        },
      ],
      tags: [
        {
          name: "things",
          description: "FIXTURE things",
          externalDocs: { url: "https://fixture.test/things" },
        },
      ],
      externalDocs: { url: "https://fixture.test/docs" },
      paths: {},
      "x-vendor": true,
      unknownField: 1,
    });
    expect(c.contract.purpose).toMatchObject({
      title: "FIXTURE purpose",
      summary: "FIXTURE summary",
      license: { identifier: "MIT" },
    });
    expect(c.contract.versioning).toEqual({ current: "4.5.6" });
    const doc = await served(c);
    expect(doc.servers).toEqual([
      {
        url: "https://{env}.fixture.test",
        variables: { env: { default: "api", enum: ["api", "sandbox"] } },
      },
    ]);
    const lines = findingLines(c);
    expect(lines).toContain("lost #/info/x-logo: x-logo: an extension of info");
    expect(lines).toContain("lost #/x-vendor: x-vendor: an extension of the document");
  });
});
