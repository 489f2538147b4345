/**
 * Part 6 as the serving engine uses it (src/engine/features.ts): an operation's events queued,
 * the queue's deliveries as signed webhooks (Standard Webhooks), and how many destinations
 * the deployment gives each event. In a Worker only when part 6 declares an event.
 */
import type { WorkerEngine } from "../../platform/worker-seam";
import { deliverBatch } from "./deliver";
import { destinationsOf, readDestinations } from "./destinations";
import { enqueueEvents } from "./emit";

export interface EventsFeature {
  readonly enqueue: typeof enqueueEvents;
  readonly consume: NonNullable<WorkerEngine["consume"]>;
  readonly destinations: NonNullable<WorkerEngine["destinations"]>;
}

export const EVENTS_FEATURE: EventsFeature = {
  enqueue: enqueueEvents,
  consume: (batch, env) => deliverBatch(batch, env),
  destinations(env) {
    const destinations = readDestinations((env ?? {}) as Readonly<Record<string, unknown>>);
    return (event) => destinationsOf(destinations, event).length;
  },
};
