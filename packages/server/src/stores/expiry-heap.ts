/** One entry's expiry as pushed; stale once the entry was replaced or deleted. */
export interface Due<T> {
  expiresAt: number;
  key: string;
  entry: T;
}

/** Binary min-heap on `expiresAt`, so the store finds what expired without looking at what did not. */
export class ExpiryHeap<T> {
  #items: Due<T>[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): Due<T> | undefined {
    return this.#items[0];
  }

  push(item: Due<T>): void {
    const items = this.#items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.expiresAt <= item.expiresAt) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = item;
  }

  pop(): Due<T> | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) this.#siftDown(0, last);
    return top;
  }

  /** Replaces the contents at once (O(n)), to drop stale items. */
  rebuild(items: Due<T>[]): void {
    this.#items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.#siftDown(i, items[i]!);
  }

  #siftDown(start: number, item: Due<T>): void {
    const items = this.#items;
    const n = items.length;
    let i = start;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && items[child + 1]!.expiresAt < items[child]!.expiresAt) child++;
      if (items[child]!.expiresAt >= item.expiresAt) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = item;
  }
}
