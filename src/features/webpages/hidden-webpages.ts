// Webpages the user deleted whose delete is not sent yet (the undo window): every list leaves
// them out, even when it is loaded again from the server meanwhile.

const hidden = new Set<string>();

export function isHidden(id: string): boolean {
  return hidden.has(id);
}

export function hideWebpages(ids: Iterable<string>): void {
  for (const id of ids) hidden.add(id);
}

export function unhideWebpages(ids: Iterable<string>): void {
  for (const id of ids) hidden.delete(id);
}
