// The ViewHost client for web front-ends and Node (18 or later): an ES module with no dependencies.
export { ViewHostClient } from "./client.mjs";
export { ViewHostSession, versionOf } from "./session.mjs";
export { ViewHostError } from "./errors.mjs";
export { fillAction, inputOf, inputValue } from "./action.mjs";
export { delay } from "./backoff.mjs";
export { applyPatch } from "./patch.mjs";
export { ServerSentEventParser } from "./sse.mjs";
export { heldSessions, forgetHeldSession } from "./cookies.mjs";
