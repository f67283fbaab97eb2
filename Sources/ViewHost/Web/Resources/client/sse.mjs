/** An incremental `text/event-stream` parser (the HTML standard's "Interpreting an event stream"): feed it text as it
 * arrives, split anywhere, and it returns the events completed so far. Comments (`:`) are skipped, `retry:` updates
 * `retry`, an event without `data:` is not dispatched. */
export class ServerSentEventParser {
    constructor() {
        /** The reconnection time the stream asked for (`retry:`), in milliseconds. */
        this.retry = null;
        /** The last event id (kept across events, as the standard says). */
        this.lastEventID = null;
        this.line = "";
        this.lastWasCR = false;
        this.event = "";
        this.data = [];
        this.hasData = false;
    }
    /** Parses `text` (decoded with a streaming `TextDecoder`); returns the events it completes. */
    feed(text) {
        const events = [];
        let start = 0;
        for (let i = 0; i < text.length; i++) {
            const char = text.charCodeAt(i);
            if (char === 10 && this.lastWasCR) {
                // The LF of a CRLF (perhaps split across two chunks): the line already ended at the CR.
                this.lastWasCR = false;
                start = i + 1;
                continue;
            }
            this.lastWasCR = char === 13;
            if (char !== 10 && char !== 13)
                continue;
            this.line += text.slice(start, i);
            start = i + 1;
            const event = this.endLine();
            if (event)
                events.push(event);
        }
        this.line += text.slice(start);
        return events;
    }
    endLine() {
        const line = this.line;
        this.line = "";
        if (line === "") {
            const event = this.hasData ? { event: this.event || "message", data: this.data.join("\n"), id: this.lastEventID } : null;
            this.event = "";
            this.data = [];
            this.hasData = false;
            return event;
        }
        if (line.startsWith(":"))
            return null;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" "))
            value = value.slice(1);
        switch (field) {
            case "event":
                this.event = value;
                break;
            case "data":
                this.data.push(value);
                this.hasData = true;
                break;
            case "id":
                if (!value.includes("\0"))
                    this.lastEventID = value;
                break;
            case "retry":
                if (/^[0-9]+$/.test(value))
                    this.retry = Number(value);
                break;
            default: break;
        }
        return null;
    }
}
