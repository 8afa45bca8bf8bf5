/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/** Where a string sits in a body: its path, and whether it is the object key at the path's end. */
export interface StringPlace {
  readonly path: JsonPath;
  readonly isKey: boolean;
}

/** Every string of `node`: each value and each object key, at any depth, for tests that visit them all. */
export function stringPlaces(node: unknown, path: JsonPath = []): StringPlace[] {
  if (typeof node === "string") return [{ path, isKey: false }];
  if (node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => stringPlaces(item, [...path, i]));
  return Object.entries(node).flatMap(([key, value]) => [
    { path: [...path, key], isKey: true },
    ...stringPlaces(value, [...path, key]),
  ]);
}

/**
 * `node` with `insert` spliced into the string at `place`, at `at` (0–1) of its length, and the path
 * of that string afterwards (a key's path changes with the key).
 */
export function spliceString(
  node: unknown,
  place: StringPlace,
  insert: string,
  at = 0.5,
): { readonly body: unknown; readonly path: JsonPath } {
  const into = (text: string) => {
    const cut = Math.floor(at * (text.length + 1));
    return text.slice(0, cut) + insert + text.slice(cut);
  };
  const { path, isKey } = place;
  const last = path.at(-1);
  const newPath = isKey && typeof last === "string" ? [...path.slice(0, -1), into(last)] : path;
  const walk = (value: unknown, rest: JsonPath): unknown => {
    const [head, ...tail] = rest;
    if (head === undefined) return into(value as string);
    if (Array.isArray(value)) return value.map((item, i) => (i === head ? walk(item, tail) : item));
    return Object.fromEntries(
      Object.entries(value as object).map(([key, item]): [string, unknown] => {
        if (key !== head) return [key, item];
        return tail.length === 0 && isKey ? [into(key), item] : [key, walk(item, tail)];
      }),
    );
  };
  return { body: walk(node, path), path: newPath };
}
