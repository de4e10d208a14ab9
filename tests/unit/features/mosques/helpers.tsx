import { screen, within } from '@testing-library/react';
import ConfigPage from '../../../../src/features/mosques/ConfigPage';
import { renderWithProviders } from '../../support/render';
import { scaled } from '../../../../testkit/time-scale';

/** The mock's seeded mosques (src/mocks/handlers/config.ts). */
export const LONDON = 'lcm4r8k2p1';
export const EAST_LONDON = 'elm7q2w9z3';
export const AZHAR = 'azh3c5v8n6';

/**
 * The Config Generator page as admin, once `waitFor` shows (a seeded mosque by default). The page
 * alone, without the console's shell: these tests are about the page (the route and its guard are
 * covered by the routing tests).
 */
export async function openConfig(waitFor: string | RegExp = 'London Central Mosque', path = '/config') {
  const rendered = renderWithProviders(<ConfigPage />, { path, as: 'admin' });
  await screen.findByText(waitFor, undefined, { timeout: scaled(15_000) });
  return rendered;
}

export function row(mosqueId: string) {
  const tr = screen.getByText(mosqueId).closest('tr');
  if (!tr) throw new Error(`No row for ${mosqueId}`);
  return within(tr);
}

export const dialog = () => within(screen.getByRole('dialog'));

export const field = (label: string | RegExp) => dialog().getByLabelText(label, { selector: 'input' });

function card(title: string): HTMLElement {
  const found = screen
    .getAllByText(title)
    .map((element) => element.closest<HTMLElement>('.MuiCard-root'))
    .find(Boolean);
  if (!found) throw new Error(`No card ${title}`);
  return found;
}

/** The figure of a summary card. */
export function cardValue(title: string): string {
  return within(card(title)).getByText(/^\d+$/).textContent ?? '';
}

/** Everything a summary card says. */
export function cardText(title: string): string {
  return card(title).textContent ?? '';
}

/** A notification (top right) with exactly this text. */
export const notification = (text: string) => screen.findByText(text, { selector: '.MuiAlert-message' });

export { gate } from '../../../../testkit/gate';
