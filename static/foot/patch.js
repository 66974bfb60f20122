/**
 * A small RFC 6902 JSON Patch applier for the seat views the server sends as patches.
 * applyPatch never changes its input: it works on a copy, so a failing patch leaves the
 * caller's view intact (the caller then asks the server for the whole view again).
 */

export class PatchError extends Error {}

function tokensOf(pointer) {
  if (pointer === "") return [];
  if (pointer[0] !== "/") throw new PatchError(`bad pointer ${pointer}`);
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function arrayIndex(array, token, forInsert) {
  if (forInsert && token === "-") return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index ${token}`);
  const index = Number(token);
  if (index > array.length || (!forInsert && index === array.length)) throw new PatchError(`index ${token} out of range`);
  return index;
}

function child(node, token) {
  if (Array.isArray(node)) return node[arrayIndex(node, token, false)];
  if (node !== null && typeof node === "object" && Object.prototype.hasOwnProperty.call(node, token)) return node[token];
  throw new PatchError(`no member ${token}`);
}

function valueAt(doc, tokens) {
  return tokens.reduce(child, doc);
}

function parentAndKey(doc, tokens) {
  const parent = valueAt(doc, tokens.slice(0, -1));
  if (parent === null || typeof parent !== "object") throw new PatchError("parent is not a container");
  return [parent, tokens[tokens.length - 1]];
}

function add(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const [parent, key] = parentAndKey(doc, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else parent[key] = value;
  return doc;
}

function remove(doc, tokens) {
  if (tokens.length === 0) throw new PatchError("cannot remove the whole document");
  const [parent, key] = parentAndKey(doc, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else if (Object.prototype.hasOwnProperty.call(parent, key)) delete parent[key];
  else throw new PatchError(`no member ${key} to remove`);
  return doc;
}

const copyOf = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

function applyOperation(doc, op) {
  const path = tokensOf(op.path);
  switch (op.op) {
    case "add": return add(doc, path, copyOf(op.value));
    case "remove": return remove(doc, path);
    case "replace":
      if (path.length === 0) return copyOf(op.value);
      valueAt(doc, path); return add(remove(doc, path), path, copyOf(op.value));
    case "move": { const from = tokensOf(op.from); const value = valueAt(doc, from); return add(remove(doc, from), path, value); }
    case "copy": return add(doc, path, copyOf(valueAt(doc, tokensOf(op.from))));
    case "test":
      if (JSON.stringify(valueAt(doc, path)) !== JSON.stringify(op.value)) throw new PatchError(`test failed at ${op.path}`);
      return doc;
    default: throw new PatchError(`unknown op ${op.op}`);
  }
}

/** Returns a new document: `doc` with every operation of `ops` applied in order. */
export function applyPatch(doc, ops) {
  return ops.reduce(applyOperation, copyOf(doc));
}
