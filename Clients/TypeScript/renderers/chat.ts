// How the page draws the chat: the screen on top of the navigation stack (the chat list, Create Chat or a
// conversation), the badge, and the push banners above the page.
(() => {
  type Chat = import("../types/viewhost").ChatSnapshot;
  type Conversation = Chat["conversations"][string];
  type Child = import("../page/dom.mjs").Child;
  const { el, post } = ViewHost;
  const valueOf = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value ?? "";

  // The screen on top of the navigation stack, drawn from its view model.
  ViewHost.renderers.chat = (s: Chat, inputs) => {
    renderBanners(s);
    // A chat screen names its contact too (the schema lists only what every screen has).
    const top = s.navigation[s.navigation.length - 1] as { screen: string; contact?: string } | undefined;
    const back = s.navigation.length > 1
      ? el("button", { class: "secondary", "aria-label": "Back", onclick: () => post(s.actions.back) }, "‹ Back") : null;
    const badge = s.badge > 0 ? el("span", { class: "badge", "aria-label": `${s.badge} unread` }, s.badge) : null;
    if (top?.screen === "createChat" && s.createChat) return renderCreateChat(s.createChat, back, badge, inputs);
    const conversation = top?.screen === "chat" && top.contact ? s.conversations[top.contact] : undefined;
    if (conversation) return renderConversation(conversation, back, badge, inputs);
    return renderChatList(s.chatList, back, badge);
  };

  function renderChatList(list: Chat["chatList"], back: Child, badge: Child): Child[] {
    const title = el("h2", {}, back, el("span", { id: "chat-title", class: "grow" }, list.title), badge,
      el("button", { "aria-label": "New chat", onclick: () => post(list.actions.addChat) }, "+"));
    const nodes: Child[] = [title];
    if (list.showSpinner) nodes.push(el("p", {}, el("span", { class: "spinner", role: "progressbar", "aria-label": "Loading chats" })));
    if (!list.hideEmptyMessage) nodes.push(el("p", { class: "empty" }, list.emptyMessage));
    if (!list.hideChats) {
      nodes.push(el("ul", { class: "chats" }, list.chats.map((chat) => el("li", {},
        el("button", { "aria-label": `Open chat with ${chat.contact}`, onclick: () => post(chat.actions.itemTapped) },
          el("span", { class: "contact" }, chat.contact),
          chat.unreadMessageCount > 0
            ? el("span", { class: "unread", "aria-label": `${chat.unreadMessageCount} unread` }, chat.unreadMessageCount)
            : el("span"),
          el("span", { class: "preview" }, chat.message),
          el("span", { class: "date" }, chat.lastMessageDate))))));
    }
    return nodes;
  }

  function renderCreateChat(create: NonNullable<Chat["createChat"]>, back: Child, badge: Child, inputs: Record<string, string>): Child[] {
    const submit = () => post(create.actions.create, { contact: valueOf("create-contact") });
    return [
      el("h2", {}, back, el("span", { id: "chat-title", class: "grow" }, create.title), badge),
      el("p", {}, create.introduction),
      el("label", { for: "create-contact" }, create.placeholder),
      el("div", { class: "row" },
        el("input", { id: "create-contact", placeholder: create.placeholder, value: inputs["create-contact"] ?? "",
          autocomplete: "off", onkeydown: (event: KeyboardEvent) => { if (event.key === "Enter") void submit(); } }),
        create.showSpinner ? el("span", { class: "spinner", role: "progressbar", "aria-label": "Creating" }) : null,
        el("button", { id: "create-button", disabled: !create.enableCreate, onclick: submit }, create.createTitle)),
      create.hideError ? null : el("p", { class: "error", role: "alert" }, create.error),
    ];
  }

  function renderConversation(chat: Conversation, back: Child, badge: Child, inputs: Record<string, string>): Child[] {
    const keep = chat.shouldWipeMessage ? "" : (inputs["message-text"] ?? "");
    const send = () => post(chat.actions.send, { text: valueOf("message-text") });
    const list = el("ul", { class: "messages", "aria-label": `Messages with ${chat.contact}` },
      chat.messages.map((message) => el("li", { class: message.sentBy },
        el("span", { class: "text" }, message.message),
        el("span", { class: "meta" },
          el("span", { class: "send-status" }, message.sendStatus),
          el("span", { class: "read-status", "aria-label": message.readStatus ? "read" : null }, message.readStatus)))));
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
    return [
      el("h2", {}, back, el("span", { id: "chat-title", class: "grow" }, chat.title), badge),
      chat.shouldShowEmpty && chat.messages.length === 0 ? el("p", { class: "empty" }, "No messages yet.") : null,
      list,
      chat.shouldShowError && chat.error ? el("p", { class: "error", role: "alert" }, chat.error) : null,
      el("label", { for: "message-text" }, chat.placeholder),
      el("div", { class: "row" },
        el("input", { id: "message-text", placeholder: chat.placeholder, value: keep, autocomplete: "off",
          onkeydown: (event: KeyboardEvent) => { if (event.key === "Enter") void send(); } }),
        chat.shouldBeBusy ? el("span", { class: "spinner", role: "progressbar", "aria-label": "Sending" }) : null,
        el("button", { id: "send-button", disabled: chat.actions.send.enabled === false || chat.shouldBeBusy, onclick: send },
          chat.sendTitle)),
    ];
  }

  function renderBanners(s: Chat): void {
    ViewHost.banners(s.notifications.filter((n) => n.shown).slice(-3).map((n) =>
      el("button", { class: "banner", "aria-label": `Message from ${n.title}: ${n.body}`, onclick: () => post(n.actions.tap) },
        el("strong", {}, n.title), " ", n.body, " ", el("small", {}, n.subtitle))));
  }
})();
