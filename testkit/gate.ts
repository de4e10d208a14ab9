/**
 * A promise a test holds a mocked answer on until it calls `release()`: the pending state it checks
 * lasts exactly as long as the test needs, where a fixed delay could end before a busy machine looks.
 */
export function gate(): { opened: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}
