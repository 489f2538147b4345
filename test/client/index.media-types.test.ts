/**
 * Bodies in each media type a FIXTURE operation declares, sent and read by the client
 * (JSON, a form, multipart, text, XML's text, bytes), one schema for both directions
 * (readOnly, writeOnly: OpenAPI 3.1 §4.8.24.1), answers by status range, and part 7's
 * error model: a declared error type, and platform failures presented as the spec's own
 * types. The FIXTURE vocabulary app, called as a service binding inside workerd.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/client";
import { FIXTURE_ROTATED_SECRETS, FIXTURE_VOCABULARY_CONTRACT } from "../fixtures/vocabulary";
import { bindingOf } from "../support/client-binding";
import { vocabularyApp } from "../support/vocabulary-app";

const binding = bindingOf(vocabularyApp());
const api = createClient(FIXTURE_VOCABULARY_CONTRACT, {
  binding,
  credentials: { fixtureRotated: FIXTURE_ROTATED_SECRETS.FIXTURE_ROTATED_KEY },
  checkAnswers: true,
});

describe("bodies of every media type", () => {
  it("a JSON body without its read-only id, answered with it (and without the write-only code)", async () => {
    const paid = await api.fixturePay({
      body: { amount: 5, cardNumber: "4111111111111111", securityCode: "123" },
    });
    expect(paid).toMatchObject({ status: 201, body: { id: "pay1", cardNumber: "****1111" } });
    if (paid.status === 201) expect(paid.body.securityCode).toBeUndefined();
  });

  it("a form (application/x-www-form-urlencoded), a repeated name for a list", async () => {
    const answer = await api.fixtureForm({ body: { name: "Rex", tags: ["a", "b"] } });
    expect(answer).toMatchObject({
      status: 200,
      body: { kind: "form", value: { name: "Rex", tags: ["a", "b"] } },
    });
  });

  it("multipart/form-data with a file (RFC 7578)", async () => {
    const file = new File(["hello"], "note.txt", { type: "text/plain" });
    const answer = await api.fixtureMultipart({ body: { title: "t", file } });
    expect(answer).toMatchObject({
      status: 200,
      body: { kind: "multipart", value: { title: "t", file: "note.txt", text: "hello" } },
    });
  });

  it("text as a string, bytes as bytes", async () => {
    expect(await api.fixtureText({ body: "hello" })).toMatchObject({
      status: 200,
      body: { kind: "text/plain", value: "hello" },
    });
    const bytes = await api.fixtureBinary({ body: new Uint8Array([1, 2, 3]) });
    expect(bytes.status).toBe(200);
    if (bytes.status === 200) expect([...bytes.body]).toEqual([1, 2, 3]);
    expect((await api.fixtureBinary()).status).toBe(200);
  });

  it("XML sent as its text, in the media type named; the answer in the one asked for", async () => {
    const xml =
      '<shelf xmlns="urn:fixture:shelves" id="7"><fl:title xmlns:fl="urn:fixture:labels">F</fl:title><books><book isbn="0-1"><pages>12</pages></book></books></shelf>';
    const asJson = await api.fixtureShelve(
      { contentType: "application/xml", body: xml },
      { accept: "application/json" },
    );
    expect(asJson).toMatchObject({ status: 200, mediaType: "application/json", body: { id: 7 } });
    const asXml = await api.fixtureShelve(
      { contentType: "application/json", body: { id: 7, label: "F", books: [] } },
      { accept: "application/xml" },
    );
    expect(asXml.status).toBe(200);
    if (asXml.status === 200 && asXml.mediaType === "application/xml")
      expect(asXml.body).toMatch(/^<\?xml|^<shelf/);
    else expect.unreachable("asked for XML");
  });

  it("an answer of a range (4XX) or default, each in its declared media type", async () => {
    expect(await api.fixtureStatuses({ query: { status: 404 } })).toMatchObject({
      status: 404,
      mediaType: "application/json",
      body: { kind: "status", value: 404 },
    });
    expect(await api.fixtureStatuses({ query: { status: 302 } })).toMatchObject({
      status: 302,
      mediaType: "text/plain",
      body: "status 302",
    });
  });
});

describe("part 7's error model", () => {
  it("a declared error type, with its members", async () => {
    const answer = await api.fixtureCreatePet({ body: { name: "Taken" } });
    expect(answer.status).toBe(409);
    if (answer.status === 409) expect(answer.body.takenBy).toBe("p0");
  });

  it("a platform failure presented as the spec's own type (a 422 answered as its 400)", async () => {
    const answer = await api.fixtureCreatePet({ body: { name: "" } });
    expect(answer.status).toBe(400);
    if (answer.status === 400)
      expect(answer.body.type).toBe("https://errors.fixture.test/invalid-input");
  });

  it("the answer's own header fields: the 201's Location", async () => {
    const answer = await api.fixtureCreatePet({ body: { name: "Rex" } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get("location")).toBe("/fixture-pets/p1");
  });
});
