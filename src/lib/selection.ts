// Picking items of a list with the mouse or the keyboard, as the library and a view's page do.

/**
 * The selection after a click on the item at `index` (with Shift, `range`: every item from
 * `anchor` to it). The clicked item's new state (selected or not) applies to the whole range.
 */
export function toggleRange(
  ids: ReadonlySet<string>,
  items: readonly { id: string }[],
  index: number,
  anchor: number | null,
  range: boolean,
): Set<string> {
  const item = items[index];
  const next = new Set(ids);
  if (!item) return next;
  const select = !ids.has(item.id);
  const [from, to] =
    range && anchor !== null ? [Math.min(anchor, index), Math.max(anchor, index)] : [index, index];
  for (const { id } of items.slice(from, to + 1)) {
    if (select) next.add(id);
    else next.delete(id);
  }
  return next;
}
