/**
 * The Worker the workerd suites run (test/vitest.config.ts): the shipped entry as it is,
 * and the sandbox's Durable Object class, which the sandbox suites bind for their FIXTURE
 * contracts whatever the shipped contract needs (the shipped entry exports it only when
 * its own contract places an operation in the sandbox).
 */

export * from "../../src/index";
export { default } from "../../src/index";
export { SandboxStore } from "../../src/mocks/sandbox/durable-object";
