import ViewModelCore

extension LoginApp {
    /// How the page draws the login screen: the two fields (every edit posted, as the original sends on every change), the instruction line and the button.
    public static let page = PageRenderer(
        script: #"""
            (() => {
              const { el, post } = ViewHost;
              const $ = (id) => document.getElementById(id);

              // Login: every edit is posted, as the original sends on every change.
              let typingTimer = null;
              function debounce(work) { clearTimeout(typingTimer); typingTimer = setTimeout(work, 150); }

              ViewHost.renderers.login = (l, inputs) => {
                return [
                  el("h2", { id: "login-title" }, "Login"),
                  el("label", { for: "login-username" }, l.labels.username),
                  el("input", { id: "login-username", class: l.usernameValid ? "" : "invalid", placeholder: l.labels.usernamePlaceholder,
                    value: inputs["login-username"] ?? l.username, autocomplete: "username",
                    oninput: (event) => debounce(() => post(l.actions.setUsername, { value: event.target.value })) }),
                  el("label", { for: "login-password" }, l.labels.password),
                  el("input", { id: "login-password", type: "password", class: l.passwordValid ? "" : "invalid",
                    placeholder: l.labels.passwordPlaceholder, value: inputs["login-password"] ?? "", autocomplete: "current-password",
                    "aria-describedby": "login-instruction",
                    oninput: (event) => debounce(() => post(l.actions.setPassword, { value: event.target.value })) }),
                  el("p", { id: "login-instruction", class: l.instructionKey === "login.succeeded" ? "" : "error", role: "status" },
                    l.instruction),
                  el("button", { id: "login-button", disabled: !l.loginEnabled, onclick: () => post(l.actions.login) }, l.labels.login),
                ];
              };
            })();
            """#,
        style: #"""
            input.invalid { background: #ffcccc; color: #111; }
            """#)
}
