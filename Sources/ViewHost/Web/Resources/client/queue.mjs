/** A queue that producers push into and one consumer reads as an async iterator, until it is closed. */
export class AsyncQueue {
    constructor() {
        this.items = [];
        this.wake = null;
        this.closed = false;
    }
    push(item) {
        this.items.push(item);
        this.wake?.();
    }
    close() {
        this.closed = true;
        this.wake?.();
    }
    async *[Symbol.asyncIterator]() {
        while (true) {
            const item = this.items.shift();
            if (item !== undefined) {
                yield item;
                continue;
            }
            if (this.closed)
                return;
            await new Promise((resolve) => { this.wake = resolve; });
            this.wake = null;
        }
    }
}
