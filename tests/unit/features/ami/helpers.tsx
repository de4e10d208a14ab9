import { screen, within } from '@testing-library/react';
import { mockAmi, mockAmis } from '../../../../src/mocks/handlers/ami';
import { renderWithProviders, type RenderOptions } from '../../support/render';
import AmiPage from '../../../../src/features/ami/AmiPage';
import { scaled } from '../../../../testkit/time-scale';

/** Three images: the latest available, one pending, one failed. */
export function seedAmis() {
  mockAmis().push(
    mockAmi({
      ami_id: 'ami-00000aaa',
      name: 'mosque-recorder-20260110-100000',
      description: 'Stable recorder',
      version: '1.2.0',
      size_gb: 8.5,
      created_at: '2026-01-10T10:00:00.000Z',
    }),
    mockAmi({
      ami_id: 'ami-00000bbb',
      name: 'mosque-recorder-20260111-100000',
      version: '1.3.0',
      state: 'pending',
      size_gb: 0,
      created_at: '2026-01-11T10:00:00.000Z',
    }),
    mockAmi({
      ami_id: 'ami-00000ccc',
      name: 'mosque-recorder-20260109-100000',
      version: '1.1.0',
      state: 'failed',
      size_gb: 0,
      created_at: '2026-01-09T10:00:00.000Z',
    }),
  );
}

/** /ami as admin, once `waitFor` (an AMI id, or the empty state) shows. */
export async function openAmi(waitFor: string | RegExp = /^ami-/, options: RenderOptions = {}) {
  const rendered = renderWithProviders(<AmiPage />, { path: '/ami', as: 'admin', ...options });
  await screen.findAllByText(waitFor, {}, { timeout: scaled(15_000) });
  return rendered;
}

export function row(amiId: string) {
  const tr = screen.getByText(amiId).closest('tr');
  if (!tr) throw new Error(`No row for ${amiId}`);
  return within(tr);
}

export function cardOf(title: string) {
  const card = screen.getByText(title, { selector: 'p' }).closest('.MuiCard-root');
  if (!card) throw new Error(`No card ${title}`);
  return within(card as HTMLElement);
}

export const dialog = () => within(screen.getByRole('dialog'));
