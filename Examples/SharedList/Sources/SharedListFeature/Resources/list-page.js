// How the page draws the shared list (the `list` feature's renderer, appended by the server to the page's module).
// Plain JavaScript, no compiler. Who added an item is a participant's id in the snapshot; the page's participants
// card knows the names (`ui.viewer()`, from GET /v1/sessions/{id}/participants) and which id is this page's own.
(() => {
  const { el, post } = ViewHost;

  ViewHost.renderers.list = (list, inputs, ui) => {
    const viewer = ui.viewer();
    const who = (id) => id === viewer.id ? "you" : id === "owner" ? "the owner" : viewer.names[id] ?? "someone who left";
    // The server counts it for whoever's credential read the snapshot (a viewer-dependent field).
    const addedByYou = list.addedByYou;
    // The box is emptied as the item is sent, so what is typed next while the answer is on its way stays (emptied
    // once the answer came, the box lost the next item typed meanwhile, and a quick second Add sent an empty text);
    // the text comes back only if the server refused it and nothing was typed since. A redraw reads the box as it is.
    const box = () => document.getElementById("list-add-text");
    const add = async () => {
      const text = box()?.value ?? "";
      const input = box();
      if (input) input.value = "";
      if (!(await post(list.actions.add, { text }))) {
        const again = box();
        if (again && again.value === "") again.value = text;
      }
    };
    return [
      el("h2", { id: "list-title" }, "Shopping list"),
      el("p", { id: "list-summary" },
        `${list.items.length} item${list.items.length === 1 ? "" : "s"}, ${list.remaining} left`,
        typeof addedByYou !== "number" ? null : el("span", { id: "list-added-by-you" }, ` · added by you: ${addedByYou}`)),
      el("ul", { id: "list-items" }, list.items.map((item) =>
        el("li", { class: item.done ? "list-item done" : "list-item", "data-item": item.id, "data-added-by": item.addedBy },
          el("input", { type: "checkbox", checked: item.done, "aria-label": `Bought: ${item.text}`,
            onchange: () => post(item.actions.toggle) }),
          el("span", { class: "list-text" }, item.text),
          el("span", { class: "list-by" }, `added by ${who(item.addedBy)}`),
          el("button", { class: "list-remove", "aria-label": `Remove ${item.text}`, onclick: () => post(item.actions.remove) },
            "Remove")))),
      el("p", { class: "list-add" },
        el("label", { for: "list-add-text" }, "New item"),
        el("input", { id: "list-add-text", value: inputs["list-add-text"] ?? "", autocomplete: "off", maxlength: "100",
          onkeydown: (event) => { if (event.key === "Enter") void add(); } }),
        el("button", { id: "list-add", disabled: list.actions.add.enabled === false, onclick: add }, "Add")),
    ];
  };
})();
