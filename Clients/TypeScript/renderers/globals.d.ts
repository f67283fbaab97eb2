// What the page gives the features' renderers: renderers/*.ts are scripts (no import or export), appended by the
// server to the page's module `app.js`, where `ViewHost` is the page's helpers (`window.ViewHost`).
declare const ViewHost: import("../page/ui.mjs").PageUI;
