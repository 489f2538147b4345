import { describe, expect, it } from "vitest";
import { emptyApp } from "../support/fixture-app";

describe("the 501 placeholder (part 4 declares nothing)", () => {
  it("never reads the request body", async () => {
    let pulls = 0;
    // highWaterMark 0: the stream is pulled only when someone reads it.
    const body = new ReadableStream(
      {
        pull(controller) {
          pulls++;
          controller.enqueue(new TextEncoder().encode("fixture body"));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request("http://fixture.test/fixture-upload", { method: "POST", body });
    const res = await emptyApp().request(request);
    expect(res.status).toBe(501);
    expect(pulls).toBe(0);
    expect(request.bodyUsed).toBe(false);
  });
});
