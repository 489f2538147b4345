/**
 * The router a Worker's operations are matched with, chosen by the build (src/build/routing.ts),
 * which knows every route the Worker will mount. Hono's default pair (a `SmartRouter` of its
 * regular-expression router and its trie) decides on the first request instead: it builds
 * the one expression of every route, and when the expression cannot keep the routes' order
 * (a literal segment beside a parameter, `/things/mine` and `/things/{id}`, which most real
 * APIs have) it throws that work away and hands every route to the trie. For 300 operations
 * that is about 24 ms of each isolate's start (test/tools/bench/README.md); the build does it
 * once, and the Worker gets either the trie or the expression the build prepared.
 */
import type { Router } from "hono/router";
import { PreparedRegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";

/**
 * The expression the build prepared for exactly these routes. A route it did not see (a build
 * older than the code that mounts the routes) would make Hono's prepared router throw while
 * the Worker starts, an outage; this one logs it once and routes with the trie, which keeps
 * any order, given every route mounted so far (the trie ships in every Worker).
 */
export function preparedRouter<T>(routes: unknown): Router<T> {
  const mounted: [string, string, T][] = [];
  // What Hono's `buildInitParams` made of the routes' paths, printed by the build as code.
  const prepared = routes as ConstructorParameters<typeof PreparedRegExpRouter<T>>;
  let router: Router<T> = new PreparedRegExpRouter<T>(...prepared);
  return {
    name: "PreparedRegExpRouter",
    add(method, path, handler) {
      mounted.push([method, path, handler]);
      try {
        router.add(method, path, handler);
      } catch (error) {
        if (!(router instanceof PreparedRegExpRouter)) throw error;
        console.error(
          JSON.stringify({
            level: "error",
            message:
              "a route the build did not prepare: routed by the trie; run npm run build:contract",
            route: `${method} ${path}`,
          }),
        );
        router = new TrieRouter<T>();
        for (const route of mounted) router.add(...route);
      }
    },
    match(method, path) {
      // Every route is mounted once the app matches (src/serve-app.ts): from here on the
      // chosen router answers directly, and the list of mounted routes is let go.
      mounted.length = 0;
      const matched = router.match(method, path);
      this.match = router.match.bind(router);
      return matched;
    },
  };
}
