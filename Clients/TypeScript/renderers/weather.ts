// How the page draws the weather: the Grados card, its "Choose location" prompt from the action's own texts. The
// icon is drawn as SVG (an emoji showed as an empty box on machines without an emoji font): a sun or moon, a cloud,
// and what falls from it, by the Weatherbit code's first letter.
(() => {
  type Weather = import("../types/viewhost").WeatherSnapshot;
  const { el, post } = ViewHost;
  const valueOf = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value ?? "";

  const svgNS = "http://www.w3.org/2000/svg";
  function svg(tag: string, attributes: Record<string, string | number>): SVGElement {
    const node = document.createElementNS(svgNS, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    return node;
  }
  function iconFor(code: string): SVGElement {
    const image = svg("svg", { viewBox: "0 0 64 64", width: 64, height: 64, "aria-hidden": "true" });
    const clear = code.startsWith("c01"), partly = code.startsWith("c02") || code.startsWith("c03");
    if (clear || partly) {
      const night = code.endsWith("n");
      const [cx, cy, r] = clear ? [32, 32, 14] : [22, 22, 10];
      image.append(svg("circle", { cx, cy, r, fill: night ? "#8a94b8" : "#f5b400" }));
      if (!night) for (let i = 0; i < 8; i++) {
        const a = (i * Math.PI) / 4, x = Math.cos(a), y = Math.sin(a);
        image.append(svg("line", { x1: cx + x * (r + 3), y1: cy + y * (r + 3), x2: cx + x * (r + 8), y2: cy + y * (r + 8),
          stroke: "#f5b400", "stroke-width": 3, "stroke-linecap": "round" }));
      }
      if (clear) return image;
    }
    image.append(svg("path", { d: "M18 46h30a10 10 0 0 0 0-20 14 14 0 0 0-27-3 9 9 0 0 0-3 23z",
      fill: code[0] === "t" ? "#6b7280" : "#c9d1db", stroke: "#8a94a6", "stroke-width": 2 }));
    const below = (f: (x: number, y: number) => SVGElement) =>
      [16, 28, 40].forEach((x, i) => image.append(f(x + 4, 52 + (i % 2) * 4)));
    switch (code[0]) {
      case "t":
        image.append(svg("polyline", { points: "34,46 28,56 34,56 29,63", fill: "none", stroke: "#f5b400", "stroke-width": 3 }));
        break;
      case "d": case "r": case "u":
        below((x, y) => svg("line", { x1: x, y1: y - 3, x2: x - 3, y2: y + 5, stroke: "#2f6fd6", "stroke-width": 3, "stroke-linecap": "round" }));
        break;
      case "s": case "f":
        below((x, y) => svg("circle", { cx: x, cy: y + 2, r: 2.5, fill: "#7aa7e0" }));
        break;
      case "a":
        [50, 56, 62].forEach((y) => image.append(svg("line", { x1: 12, y1: y, x2: 52, y2: y, stroke: "#9aa3ad", "stroke-width": 3 })));
        break;
    }
    return image;
  }

  ViewHost.renderers.weather = (w: Weather, inputs) => {
    const action = w.actions.changeLocation;
    const submit = () => post(action, { location: valueOf("weather-location") });
    return [
      el("h2", { id: "weather-title" }, "Weather"),
      el("div", { class: "weather" },
        el("p", { class: "location", "aria-label": "Location" }, el("strong", {}, w.locationName)),
        el("p", { class: "date" }, w.date),
        w.icon ? el("p", { class: "weather-icon", role: "img", "aria-label": `Icon ${w.icon}` }, iconFor(w.icon)) : null,
        el("p", { class: "summary" }, w.summary),
        el("p", { class: "summary forecast" }, w.forecastSummary),
        w.error ? el("p", { class: "error", role: "alert" }, w.error) : null,
        el("p", { class: "hint" }, `Provider: ${w.provider}${w.provider === "offline" ? " (simulated, not a real observation)" : ""} · ${w.status}`)),
      el("label", { for: "weather-location" }, action.prompt?.title ?? "Location"),
      el("div", { class: "row" },
        el("input", { id: "weather-location", placeholder: "City, region", value: inputs["weather-location"] ?? "",
          onkeydown: (event: KeyboardEvent) => { if (event.key === "Enter") void submit(); } }),
        el("button", { id: "weather-submit", onclick: submit }, action.prompt?.submit ?? "Submit")),
    ];
  };
})();
