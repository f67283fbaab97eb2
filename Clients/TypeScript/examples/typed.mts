// The client typed with an app's generated features (README, "Types for any app's features"). Compiled with the rest
// by compile.sh (nothing of it goes into a target), so what the README says of the types stays true: the
// `@ts-expect-error` lines must not compile.
import { ViewHostClient } from "../client/index.mjs";
import type { Features } from "../types/viewhost.js";

export async function typed(url: string): Promise<string[]> {
  const client = new ViewHostClient<Features>(url);
  const session = await client.createSession({ features: ["login", "person"] });
  await session.send("login", { type: "setUsername", value: "ann" });
  // @ts-expect-error: setUsername takes a string
  await session.send("login", { type: "setUsername", value: 1 });
  // @ts-expect-error: person has no such intent
  await session.send("person", { type: "setUsername", value: "ann" });
  // @ts-expect-error: the app has no such feature
  await session.snapshot("notes");
  const login = await session.snapshot("login");
  const seen = [login.username];
  for await (const change of session.changes()) {
    if (change.feature === "login") seen.push(change.snapshot.username);
    if (change.feature === "person") seen.push(change.snapshot.nameText);
    // @ts-expect-error: a change is one feature's until narrowed
    seen.push(change.snapshot.username);
    break;
  }
  return seen;
}
