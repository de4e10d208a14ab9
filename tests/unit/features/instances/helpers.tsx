import { screen, within } from '@testing-library/react';
import type { Instance } from '../../../../contract/instances';
import { addMockInstances, mockInstance } from '../../../../src/mocks/handlers/instances';
import InstancesPage from '../../../../src/features/instances/InstancesPage';
import { renderPage, type RenderOptions } from '../../support/render';
import { scaled } from '../../../../testkit/time-scale';

/** A small fleet: one of every state. */
export function seedFleet() {
  return {
    running: addMockInstances(
      mockInstance({
        id: 'cap-run001',
        instance_id: 'local-run001',
        name: 'capture-m1-run001',
        state: 'running',
        runtime_hours: 2.5,
        mosque_id: 'm1',
      }),
    )[0],
    pending: addMockInstances(
      mockInstance({
        id: 'cap-pen001',
        instance_id: 'cap-pen001',
        name: 'capture-adhoc-pen001',
        state: 'pending',
        runtime_hours: 0,
      }),
    )[0],
    stopping: addMockInstances(mockInstance({ id: 'cap-stp001', name: 'capture-adhoc-stp001', state: 'stopping' }))[0],
    stopped: addMockInstances(mockInstance({ id: 'cap-sto001', name: 'capture-adhoc-sto001', state: 'stopped' }))[0],
    terminated: addMockInstances(
      mockInstance({
        id: 'cap-ter001',
        name: 'capture-adhoc-ter001',
        state: 'terminated',
        recording_status: 'captured',
      }),
    )[0],
  };
}

/** The Instances page as admin, once `waitFor` (an instance name, or the empty state) shows. */
export async function openInstances(
  waitFor: string | RegExp = /capture-|No instances found/,
  options: RenderOptions & { path?: string } = {},
) {
  const rendered = renderPage(<InstancesPage />, { path: '/instances', as: 'admin', ...options });
  await screen.findAllByText(waitFor, {}, { timeout: scaled(15_000) });
  return rendered;
}

export function row(name: string) {
  const tr = screen.getByText(name).closest('tr');
  if (!tr) throw new Error(`No row for ${name}`);
  return within(tr);
}

export const dialog = () => within(screen.getByRole('dialog'));

/** The figure of a summary card. */
export function cardValue(title: string): string {
  const card = screen.getByText(title, { selector: 'p, span, h6, div' }).closest('.MuiCard-root');
  if (!card) throw new Error(`No card ${title}`);
  return within(card as HTMLElement).getByText(/^\d+$/).textContent ?? '';
}

export async function openRowMenu(
  user: { click: (element: Element) => Promise<void> },
  instance: Pick<Instance, 'name'>,
) {
  await user.click(row(instance.name).getByRole('button', { name: `Actions for ${instance.name}` }));
  return within(await screen.findByRole('menu'));
}
