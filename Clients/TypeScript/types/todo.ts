// The TypeScript types of this app's features, written from the schemas of its /openapi.json by its
// `typescript` command (`viewhost typescript`): do not edit; write them again when a feature's wire
// types change. With the client: `new ViewHostClient<Features>(baseURL)`.

/** An action a snapshot offers: `body` (its `{param}` placeholders filled) posted to `href`. */
export interface Action {
  /** The event to post: its type and fields (an invitation action: purpose, features and name, no type). A string "{name}" is a placeholder the person fills in; inputs says what it takes when that is not any string. */
  body: {
    type?: string;
    [key: string]: string | number | boolean | null | (string | number | boolean | null)[] | undefined;
  };
  enabled?: boolean;
  href: string;
  /** The placeholders that take something other than any string, by name, as JSON Schema states them: {"votes":{"type":"integer"}}, {"column":{"type":"string","enum":[…]}}. A client converts what the person typed before it posts. */
  inputs?: {
    [key: string]: {
      enum?: string[];
      type: "string" | "integer" | "number" | "boolean";
    };
  };
  method: "POST";
  prompt?: {
    submit?: string;
    title?: string;
  };
  /** Absent for an event of the feature (posted to its events route, answered 202); invitations: a library action, posted to the session's invitations route (answered 201 with the code), whose body has purpose, features and name and no type. */
  target?: "invitations";
}

// MARK: todo

/** The todo snapshot; its members follow from the feature's snapshot type. */
export interface TodoSnapshot {
  actions: {
    add: Action;
    clearCompleted: Action;
    undo: Action;
  };
  feature: "todo";
  items: {
    actions: {
      edit: Action;
      remove: Action;
      toggle: Action;
    };
    done: boolean;
    id: string;
    title: string;
  }[];
  remaining: number;
  undoMessage?: string | null;
  version: number;
}

/** The `add` intent of todo. */
export interface TodoAddIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  /** The item's title: at least one character that is not white space (it is trimmed). At most 200 Unicode code points (so at most 800 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  title: string;
  type: "add";
}

/** The `toggle` intent of todo. */
export interface TodoToggleIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  /** The item's id, such as t3. At most 16 Unicode code points (so at most 64 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  item: string;
  type: "toggle";
}

/** The `edit` intent of todo. */
export interface TodoEditIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  /** The item's id, such as t3. At most 16 Unicode code points (so at most 64 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  item: string;
  /** The item's title: at least one character that is not white space (it is trimmed). At most 200 Unicode code points (so at most 800 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  title: string;
  type: "edit";
}

/** The `remove` intent of todo. */
export interface TodoRemoveIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  /** The item's id, such as t3. At most 16 Unicode code points (so at most 64 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  item: string;
  type: "remove";
}

/** The `clearCompleted` intent of todo. */
export interface TodoClearCompletedIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "clearCompleted";
}

/** The `undo` intent of todo. */
export interface TodoUndoIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "undo";
}

/** One todo event, discriminated by type; an unknown type gets 422 listing the allowed types. */
export type TodoIntent =
  | TodoAddIntent
  | TodoToggleIntent
  | TodoEditIntent
  | TodoRemoveIntent
  | TodoClearCompletedIntent
  | TodoUndoIntent;

/** The app's features: each one's snapshot and intents. */
export interface Features {
  todo: { snapshot: TodoSnapshot; intent: TodoIntent };
}

/** The names of the app's features. */
export type FeatureName = keyof Features;
