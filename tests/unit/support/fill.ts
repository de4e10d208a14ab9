import type { UserEvent } from '@testing-library/user-event';

/**
 * Replaces what `field` holds with `text`, pasted as one input event. Typing re-renders a controlled
 * MUI form once per key (in the test DOM, seconds for a URL); this is for tests about what the form does with
 * a value, not about typing it.
 */
export async function fill(user: UserEvent, field: Element, text: string): Promise<void> {
  await user.clear(field);
  if (!text) return;
  await user.click(field);
  await user.paste(text);
}
