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

// MARK: chat

/** The chat snapshot; its members follow from the feature's snapshot type. */
export interface ChatSnapshot {
  actions: {
    back: Action;
  };
  badge: number;
  chatList: {
    actions: {
      addChat: Action;
      invite?: Action | null;
    };
    chats: {
      actions: {
        block?: Action | null;
        itemTapped: Action;
        remove?: Action | null;
        unblock?: Action | null;
      };
      blocked?: boolean | null;
      contact: string;
      contactID?: string | null;
      contactName?: string | null;
      lastMessageDate: string;
      message: string;
      unreadMessageCount: number;
    }[];
    emptyMessage: string;
    hideChats: boolean;
    hideEmptyMessage: boolean;
    showSpinner: boolean;
    title: string;
  };
  conversations: {
    [key: string]: {
      actions: {
        afterShowingMessages: Action;
        send: Action;
      };
      contact: string;
      error?: string | null;
      messages: {
        id: string;
        message: string;
        notDelivered?: string | null;
        readStatus: "" | "✓";
        sendStatus: string;
        sentBy: "user" | "other";
      }[];
      placeholder: string;
      sendTitle: string;
      shouldAnimateChanges: boolean;
      shouldBeBusy: boolean;
      shouldShowEmpty: boolean;
      shouldShowError: boolean;
      shouldWipeMessage: boolean;
      tableViewDifferences: {
        finalRowCount: number;
        rowsToDelete: number[];
        rowsToInsert: number[];
        rowsToUpdate: number[];
      };
      title: string;
    };
  };
  createChat?: {
    actions: {
      create: Action;
    };
    createTitle: string;
    enableCreate: boolean;
    error: string;
    hideError: boolean;
    introduction: string;
    placeholder: string;
    showSpinner: boolean;
    title: string;
  } | null;
  feature: "chat";
  navigation: {
    screen: string;
  }[];
  notifications: {
    actions: {
      tap: Action;
    };
    badge: number;
    body: string;
    id: string;
    shown: boolean;
    subtitle: string;
    title: string;
  }[];
  version: number;
}

/** The `appear` intent of chat. */
export interface ChatAppearIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "appear";
}

/** The `addChat` intent of chat. */
export interface ChatAddChatIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "addChat";
}

/** The `create` intent of chat. */
export interface ChatCreateIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  contact: string;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "create";
}

/** The `openChat` intent of chat. */
export interface ChatOpenChatIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  contact: string;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "openChat";
}

/** The `send` intent of chat. */
export interface ChatSendIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. null is the same as absent. */
  contact?: string | null;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  /** At most 4000 Unicode code points (so at most 16000 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  text: string;
  type: "send";
}

/** The `userRead` intent of chat. */
export interface ChatUserReadIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. null is the same as absent. */
  contact?: string | null;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "userRead";
}

/** The `back` intent of chat. */
export interface ChatBackIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "back";
}

/** The `appResignActive` intent of chat. */
export interface ChatAppResignActiveIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "appResignActive";
}

/** The `appBecomeActive` intent of chat. */
export interface ChatAppBecomeActiveIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "appBecomeActive";
}

/** The `notificationTap` intent of chat. */
export interface ChatNotificationTapIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  contact: string;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "notificationTap";
}

/** The `removeContact` intent of chat. */
export interface ChatRemoveContactIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  contact: string;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "removeContact";
}

/** The `blockContact` intent of chat. */
export interface ChatBlockContactIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  contact: string;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "blockContact";
}

/** The `unblockContact` intent of chat. */
export interface ChatUnblockContactIntent {
  /** At most 1024 Unicode code points (so at most 4096 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  contact: string;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "unblockContact";
}

/** One chat event, discriminated by type; an unknown type gets 422 listing the allowed types. */
export type ChatIntent =
  | ChatAppearIntent
  | ChatAddChatIntent
  | ChatCreateIntent
  | ChatOpenChatIntent
  | ChatSendIntent
  | ChatUserReadIntent
  | ChatBackIntent
  | ChatAppResignActiveIntent
  | ChatAppBecomeActiveIntent
  | ChatNotificationTapIntent
  | ChatRemoveContactIntent
  | ChatBlockContactIntent
  | ChatUnblockContactIntent;

// MARK: weather

/** The weather snapshot; its members follow from the feature's snapshot type. */
export interface WeatherSnapshot {
  actions: {
    changeLocation: Action;
  };
  date: string;
  error?: string | null;
  feature: "weather";
  forecastSummary: string;
  icon?: string | null;
  locationName: string;
  observedAt?: string | null;
  provider: string;
  status: "loading" | "ready" | "notFound" | "failed";
  summary: string;
  version: number;
}

/** The `changeLocation` intent of weather. */
export interface WeatherChangeLocationIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  /** At most 200 Unicode code points (so at most 800 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  location: string;
  type: "changeLocation";
}

/** One weather event, discriminated by type; an unknown type gets 422 listing the allowed types. */
export type WeatherIntent =
  | WeatherChangeLocationIntent;

// MARK: login

/** The login snapshot; its members follow from the feature's snapshot type. */
export interface LoginSnapshot {
  actions: {
    login: Action;
    setPassword: Action;
    setUsername: Action;
  };
  colors: {
    instruction: string;
    loginButton: string;
    loginTitle: string;
    passwordField: string;
    usernameField: string;
  };
  feature: "login";
  instruction: string;
  instructionKey?: "username.empty" | "username.tooShort" | "username.tooLong" | "password.empty" | "password.tooShort" | "password.tooLong" | "login.succeeded" | null;
  labels: {
    login: string;
    password: string;
    passwordPlaceholder: string;
    username: string;
    usernamePlaceholder: string;
  };
  loginEnabled: boolean;
  passwordLength: number;
  passwordValid: boolean;
  username: string;
  usernameValid: boolean;
  version: number;
}

/** The `setUsername` intent of login. */
export interface LoginSetUsernameIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "setUsername";
  /** At most 256 Unicode code points (so at most 1024 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  value: string;
}

/** The `setPassword` intent of login. */
export interface LoginSetPasswordIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "setPassword";
  /** At most 256 Unicode code points (so at most 1024 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  value: string;
}

/** The `login` intent of login. */
export interface LoginLoginIntent {
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  type: "login";
}

/** One login event, discriminated by type; an unknown type gets 422 listing the allowed types. */
export type LoginIntent =
  | LoginSetUsernameIntent
  | LoginSetPasswordIntent
  | LoginLoginIntent;

// MARK: person

/** The person snapshot; its members follow from the feature's snapshot type. */
export interface PersonSnapshot {
  actions: {
    setPerson: Action;
  };
  birthdate: string;
  birthdateText: string;
  feature: "person";
  firstName: string;
  lastName: string;
  nameText: string;
  salutation?: string | null;
  version: number;
}

/** The `setPerson` intent of person. */
export interface PersonSetPersonIntent {
  /** An ISO 8601 calendar date (1970-01-01, midnight UTC) or an RFC 3339 date-time with a zone (1970-01-01T00:00:00Z, 1969-12-31T19:00:00-05:00; a fraction of 1 to 9 digits allowed), of a real day of the years 0001 to 9999; anything else gets 422. At most 64 Unicode code points (so at most 256 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  birthdate: string;
  /** At most 256 Unicode code points (so at most 1024 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  firstName: string;
  /** Client event id, 1 to 255 visible ASCII characters (what Idempotency-Key takes): a repeat is acknowledged but not applied again. null is the same as no id; anything else gets 422. */
  id?: string | null;
  /** At most 256 Unicode code points (so at most 1024 UTF-8 bytes); longer gets 422 naming the field and the limit. */
  lastName: string;
  /** At most 64 Unicode code points (so at most 256 UTF-8 bytes); longer gets 422 naming the field and the limit. null is the same as absent. */
  salutation?: string | null;
  type: "setPerson";
}

/** One person event, discriminated by type; an unknown type gets 422 listing the allowed types. */
export type PersonIntent =
  | PersonSetPersonIntent;

/** The app's features: each one's snapshot and intents. */
export interface Features {
  chat: { snapshot: ChatSnapshot; intent: ChatIntent };
  weather: { snapshot: WeatherSnapshot; intent: WeatherIntent };
  login: { snapshot: LoginSnapshot; intent: LoginIntent };
  person: { snapshot: PersonSnapshot; intent: PersonIntent };
}

/** The names of the app's features. */
export type FeatureName = keyof Features;
