/** One page of a cursor-paged list, as every list of the API answers it. */
export interface Page<T> {
  items: T[];
  nextCursor?: string | null;
}

/** Every item of a cursor-paged list, fetching the next page only when the caller gets that far. */
export async function* everyItem<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
