// A dynamic import made once, its promise shared. `import()` of a module loaded already still
// resolves through the browser's module loader, whose steps are tasks: they queue behind what the
// main thread is doing. Between a click on a row and the detail route's loader, with the library
// rendering meanwhile, that took 47–49 ms (about 1 ms with the page idle); a promise settled
// already resolves in a microtask.

/** Loads the module on its first call; later calls (and warm-ups) share its promise. */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let module: Promise<T> | undefined;
  return () =>
    (module ??= load().catch((error: unknown) => {
      // A chunk that failed to load is asked for again next time.
      module = undefined;
      throw error;
    }));
}
