import { ViewHostError } from "../client/errors.mjs";
import { el } from "./dom.mjs";
/** What a person reads for a refusal or a failure: the server's own sentence when it gave one. */
export function plainly(error) {
    if (error instanceof ViewHostError && error.kind === "problem") {
        return error.detail || `${error.title} (${error.status ?? "no status"}).`;
    }
    if (error instanceof ViewHostError && error.kind === "transport")
        return "The server cannot be reached; try again.";
    return error instanceof Error ? error.message : String(error);
}
const input = (id) => document.getElementById(id);
/** The page's "People" card, shown when a feature of the app takes contacts (the server lists them in `<main
 * data-contacts>`): invite someone (the code shown once, with a copy button) or redeem a code someone gave you. It is
 * built once and never redrawn from a snapshot, so a code shown stays until another replaces it or it is withdrawn.
 * The names start from the login's username while the person has not typed one. */
export class PeopleCard {
    constructor(host, features) {
        /** The invitation whose code is shown. */
        this.shown = null;
        /** The name inputs the person typed in (no longer filled from the login). */
        this.typed = new Set();
        this.host = host;
        this.features = features;
    }
    /** The card, to append to the page's main. */
    build() {
        const name = (id) => [
            el("label", { for: id }, "Your name, as they will see it"),
            el("input", { id, required: true, maxlength: "64", autocomplete: "nickname",
                oninput: () => this.typed.add(id) }),
        ];
        const feature = this.features.length > 1
            ? [el("label", { for: "invite-feature" }, "For"),
                el("select", { id: "invite-feature" }, this.features.map((name) => el("option", { value: name }, name)))]
            : null;
        return el("section", { id: "people", class: "card", "aria-labelledby": "people-title" }, el("h2", { id: "people-title" }, "People"), el("form", { id: "invite-form", "aria-labelledby": "invite-title", onsubmit: (event) => this.invite(event) }, el("h3", { id: "invite-title" }, "Invite someone"), name("invite-name"), feature, el("div", { class: "buttons" }, el("button", { id: "invite-button", type: "submit" }, "Create invitation")), el("p", { id: "invite-error", class: "error", role: "alert", hidden: true })), el("div", { id: "invite-result", hidden: true }, el("p", { id: "invite-hint", class: "hint" }), el("div", { class: "row" }, el("output", { id: "invite-code", class: "code", "aria-describedby": "invite-hint" }), el("button", { id: "invite-copy", type: "button", onclick: () => void this.copy() }, "Copy"), el("button", { id: "invite-withdraw", type: "button", class: "secondary", onclick: () => void this.withdraw() }, "Withdraw"))), el("form", { id: "redeem-form", "aria-labelledby": "redeem-title", onsubmit: (event) => this.redeem(event) }, el("h3", { id: "redeem-title" }, "Add someone with their code"), el("label", { for: "redeem-code" }, "Code"), el("input", { id: "redeem-code", required: true, autocomplete: "off", spellcheck: "false" }), name("redeem-name"), el("div", { class: "buttons" }, el("button", { id: "redeem-button", type: "submit" }, "Add contact")), el("p", { id: "redeem-error", class: "error", role: "alert", hidden: true }), el("p", { id: "redeem-done", role: "status" })));
    }
    /** A new login snapshot: its username fills the names the person has not typed. */
    login(snapshot) {
        const username = typeof snapshot.username === "string" ? snapshot.username.trim() : "";
        if (username === "")
            return;
        for (const id of ["invite-name", "redeem-name"]) {
            const field = input(id);
            if (field && !this.typed.has(id) && document.activeElement !== field)
                field.value = username;
        }
    }
    /** Shows an invitation just made (by this card, or by an invitation action a snapshot offers): its code, this once. */
    show(invitation) {
        this.shown = invitation;
        const result = document.getElementById("invite-result");
        const code = document.getElementById("invite-code");
        const hint = document.getElementById("invite-hint");
        if (!result || !code || !hint)
            return;
        const until = new Date(invitation.expiresAt);
        const when = Number.isNaN(until.getTime()) ? invitation.expiresAt
            : until.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
        const uses = invitation.uses === 1 ? "once" : `${invitation.uses} times`;
        hint.textContent = `Give this code to the person you invite (by any means). It is shown only now, and works ${uses}, until ${when}.`;
        code.textContent = invitation.code;
        result.hidden = false;
        document.getElementById("invite-copy")?.focus();
    }
    say(id, text) {
        const line = document.getElementById(id);
        if (!line)
            return;
        line.textContent = text;
        line.hidden = text === "";
    }
    async invite(event) {
        event.preventDefault();
        const session = this.host.session();
        if (!session)
            return;
        this.say("invite-error", "");
        const chosen = document.getElementById("invite-feature")?.value ?? this.features[0] ?? "";
        try {
            this.show(await session.createInvitation({ feature: chosen, name: input("invite-name")?.value.trim() ?? "" }));
        }
        catch (error) {
            this.say("invite-error", plainly(error));
        }
    }
    async copy() {
        if (!this.shown)
            return;
        try {
            await navigator.clipboard.writeText(this.shown.code);
            this.host.status("The code is copied.");
        }
        catch {
            // No clipboard here (an insecure origin, or refused): select the code for the person to copy.
            const code = document.getElementById("invite-code");
            if (code)
                getSelection()?.selectAllChildren(code);
            this.host.status("Copy the selected code.");
        }
    }
    async withdraw() {
        const session = this.host.session();
        if (!session || !this.shown)
            return;
        try {
            await session.withdrawInvitation(this.shown.id);
            this.shown = null;
            const result = document.getElementById("invite-result");
            if (result)
                result.hidden = true;
            this.host.status("The invitation is withdrawn: its code no longer works.");
        }
        catch (error) {
            this.say("invite-error", plainly(error));
        }
    }
    async redeem(event) {
        event.preventDefault();
        const session = this.host.session();
        if (!session)
            return;
        this.say("redeem-error", "");
        this.say("redeem-done", "");
        const code = input("redeem-code");
        try {
            const contact = await session.redeem(code?.value.trim() ?? "", input("redeem-name")?.value.trim() ?? "");
            if (code)
                code.value = "";
            this.say("redeem-done", `${contact.name} is now a contact.`);
        }
        catch (error) {
            this.say("redeem-error", plainly(error));
        }
    }
}
