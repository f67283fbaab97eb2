// How the page draws the person: the name and birthdate as shown, and a form to replace the person.
(() => {
  type Person = import("../types/viewhost").PersonSnapshot;
  const { el, post } = ViewHost;
  const valueOf = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value ?? "";

  ViewHost.renderers.person = (p: Person, inputs) => {
    const field = (id: string, label: string, value: string | null | undefined, type = "text") => [
      el("label", { for: id }, label),
      el("input", { id, type, value: inputs[id] ?? value ?? "" }),
    ];
    const save = () => post(p.actions.setPerson, {
      salutation: valueOf("person-salutation"), firstName: valueOf("person-first"),
      lastName: valueOf("person-last"), birthdate: valueOf("person-birthdate"),
    });
    return [
      el("h2", { id: "person-title" }, "Person"),
      el("p", {}, el("strong", { id: "person-name" }, p.nameText)),
      el("p", { id: "person-birthdate-text" }, p.birthdateText),
      field("person-salutation", "Salutation", p.salutation),
      field("person-first", "First name", p.firstName),
      field("person-last", "Last name", p.lastName),
      field("person-birthdate", "Birthdate", p.birthdate ? p.birthdate.slice(0, 10) : "", "date"),
      el("p", {}, el("button", { id: "person-save", onclick: save }, "Save")),
    ];
  };
})();
