/**
 * A gate a test opens once the state it waits for is reached: a routed request held until then
 * stands for a slow server without guessing how slow the machine is.
 */
export interface Gate {
  /** Resolves once `open()` was called. */
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
