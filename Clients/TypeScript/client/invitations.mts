import type { ContactMade, CreatedInvitation, Invitation, JoinInvitation, Participant } from "./types.mjs";
import { ViewHostError } from "./errors.mjs";

// The answers of the invitation, contact and participant routes, checked: a member missing or of another type is an invalid
// response naming it, never a value of the wrong type handed on.

type Members = Record<string, unknown>;

function object(value: unknown, what: string, status: number): Members {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw ViewHostError.invalidResponse(`the ${status} answer is not ${what}`, status);
  }
  return value as Members;
}

function text(members: Members, name: string, what: string, status: number): string {
  const value = members[name];
  if (typeof value !== "string") throw ViewHostError.invalidResponse(`${what} in the ${status} answer has no ${name}`, status);
  return value;
}

/** An invitation as the server lists it (`200`) or made it (`201`, then with its code elsewhere). */
export function invitationOf(value: unknown, status: number): Invitation {
  const members = object(value, "an invitation", status);
  const uses = members.uses;
  const features = members.features;
  if (typeof uses !== "number" || !Array.isArray(features) || !features.every((item) => typeof item === "string")) {
    throw ViewHostError.invalidResponse(`an invitation in the ${status} answer lacks its uses or features`, status);
  }
  return {
    id: text(members, "id", "an invitation", status),
    purpose: "contact",
    features: features as string[],
    name: text(members, "name", "an invitation", status),
    expiresAt: text(members, "expiresAt", "an invitation", status),
    uses,
  };
}

/** `POST /v1/sessions/{id}/invitations`'s `201`: the invitation and its code. */
export function createdInvitationOf(value: unknown): CreatedInvitation {
  return { ...invitationOf(value, 201), code: text(object(value, "an invitation", 201), "code", "the invitation", 201) };
}

/** `GET /v1/sessions/{id}/invitations`'s `200`: `{"invitations": [...]}`. */
export function invitationListOf(value: unknown): Invitation[] {
  const list = object(value, "a list of invitations", 200).invitations;
  if (!Array.isArray(list)) throw ViewHostError.invalidResponse("the 200 answer has no invitations", 200);
  return list.map((item) => invitationOf(item, 200));
}

/** `POST /v1/sessions/{id}/contacts`'s `201`: `{"contact": {"id", "name", "feature"}}`. */
export function contactOf(value: unknown): ContactMade {
  const contact = object(object(value, "a contact", 201).contact, "a contact", 201);
  return {
    id: text(contact, "id", "the contact", 201),
    name: text(contact, "name", "the contact", 201),
    feature: text(contact, "feature", "the contact", 201),
  };
}

/** `POST /v1/sessions/{id}/invitations`'s `201` for purpose `join`: the invitation and its code. */
export function joinInvitationOf(value: unknown): JoinInvitation {
  const members = object(value, "an invitation", 201);
  const features = members.features;
  if (typeof members.uses !== "number" || !Array.isArray(features) || !features.every((item) => typeof item === "string")) {
    throw ViewHostError.invalidResponse("the invitation in the 201 answer lacks its uses or features", 201);
  }
  return {
    id: text(members, "id", "the invitation", 201), code: text(members, "code", "the invitation", 201),
    features: features as string[], role: "member", uses: members.uses,
    expiresAt: text(members, "expiresAt", "the invitation", 201),
  };
}

/** A participant as `GET /v1/sessions/{id}/participants` lists it, or as `POST /v1/invitations/{code}` made it
 * (then without presence: it has no stream open yet). */
export function participantOf(value: unknown, status: number): Participant {
  const members = object(value, "a participant", status);
  const role = members.role === "owner" ? "owner" : "member";
  const presence = members.presence as Members | undefined;
  return {
    id: text(members, "id", "a participant", status), name: text(members, "name", "a participant", status), role,
    presence: presence && typeof presence === "object" && typeof presence.online === "boolean"
      ? { online: presence.online, since: typeof presence.since === "string" ? presence.since : "" }
      : { online: false, since: "" },
  };
}

/** `GET /v1/sessions/{id}/participants`'s `200`: `{"participants": [...]}`, the owner first. */
export function participantListOf(value: unknown): Participant[] {
  const list = object(value, "a list of participants", 200).participants;
  if (!Array.isArray(list)) throw ViewHostError.invalidResponse("the 200 answer has no participants", 200);
  return list.map((item) => participantOf(item, 200));
}
