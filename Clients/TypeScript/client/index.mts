// The ViewHost client for web front-ends and Node (18 or later): an ES module with no dependencies.
export { ViewHostClient } from "./client.mjs";
export { ViewHostSession, versionOf } from "./session.mjs";
export { ViewHostError } from "./errors.mjs";
export { fillAction, inputOf, inputValue } from "./action.mjs";
export type { ErrorKind, FieldError } from "./errors.mjs";
export type { ChangeOptions } from "./changes.mjs";
export type { ClientOptions } from "./options.mjs";
export { delay, type Backoff } from "./backoff.mjs";
export { applyPatch, type PatchOperation } from "./patch.mjs";
export { ServerSentEventParser, type ServerSentEvent } from "./sse.mjs";
export { heldSessions, forgetHeldSession } from "./cookies.mjs";
export type {
  Action, ActionInput, ActionValue, AnyFeatures, AnySnapshot, Change, ChangeSource, ContactMade, CreatedInvitation, Feature,
  FeatureMap, Intent, Invitation, InvitationOptions, JoinInvitation, Participant, Presence, SendReceipt, SessionInfo, SessionOptions, Snapshot, VersionList,
} from "./types.mjs";
