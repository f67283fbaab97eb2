"use strict";
// How the page draws the login screen: the two fields (every edit posted, as the original sends on every change),
// the instruction line and the button.
(() => {
    const { el, post } = ViewHost;
    // One timer per field: typing the password within 150 ms of the username must not drop the username's post.
    const typingTimers = new Map();
    function debounce(field, work) {
        clearTimeout(typingTimers.get(field));
        typingTimers.set(field, setTimeout(work, 150));
    }
    const typed = (event) => event.target.value;
    ViewHost.renderers.login = (l, inputs) => [
        el("h2", { id: "login-title" }, "Login"),
        el("label", { for: "login-username" }, l.labels.username),
        el("input", { id: "login-username", class: l.usernameValid ? "" : "invalid", placeholder: l.labels.usernamePlaceholder,
            value: inputs["login-username"] ?? l.username, autocomplete: "username",
            oninput: (event) => { const value = typed(event); debounce("username", () => void post(l.actions.setUsername, { value })); } }),
        el("label", { for: "login-password" }, l.labels.password),
        el("input", { id: "login-password", type: "password", class: l.passwordValid ? "" : "invalid",
            placeholder: l.labels.passwordPlaceholder, value: inputs["login-password"] ?? "", autocomplete: "current-password",
            "aria-describedby": "login-instruction",
            oninput: (event) => { const value = typed(event); debounce("password", () => void post(l.actions.setPassword, { value })); } }),
        el("p", { id: "login-instruction", class: l.instructionKey === "login.succeeded" ? "" : "error", role: "status" }, l.instruction),
        el("button", { id: "login-button", disabled: !l.loginEnabled, onclick: () => post(l.actions.login) }, l.labels.login),
    ];
})();
