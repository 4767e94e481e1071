// Position lists by symbol (a graph's by-subject, by-predicate and by-object indexes), kept ascending.

/** Inserts into an ascending position list. */
export function insertSorted<Key>(index: Map<Key, number[]>, key: Key, value: number): void {
  const list = index.get(key);
  if (!list) {
    index.set(key, [value]);
    return;
  }
  list.splice(lowerBound(list, value), 0, value);
}

/** Removes from an ascending position list (the key goes when its list empties). */
export function removeSorted<Key>(index: Map<Key, number[]>, key: Key, value: number): void {
  const list = index.get(key);
  if (!list) return;
  const at = lowerBound(list, value);
  if (list[at] !== value) return;
  list.splice(at, 1);
  if (list.length === 0) index.delete(key);
}

function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function pushTo<Key>(index: Map<Key, number[]>, key: Key, value: number): void {
  const list = index.get(key);
  if (list) list.push(value);
  else index.set(key, [value]);
}
