import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { mockMosques } from '../../../../src/mocks/handlers/config';
import { fill } from '../../support/fill';
import { captureBodies, server } from '../../support/server';
import { AZHAR, dialog, EAST_LONDON, field, LONDON, openConfig, row } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => {
  server.events.removeAllListeners();
});

const failWith = (method: 'put' | 'delete' | 'post', path: string, status: number, detail?: string) =>
  server.use(
    http[method](path, () =>
      detail
        ? HttpResponse.json({ success: false, detail, error: detail }, { status })
        : HttpResponse.json({}, { status }),
    ),
  );

// The whole console is mounted and typed into: beside CI's other lane (browser journeys, faults) one test took 49 s.
describe('Edit Mosque', { timeout: scaled(90_000) }, () => {
  async function openEdit(id = EAST_LONDON) {
    const rendered = await openConfig();
    await rendered.user.click(row(id).getByRole('button', { name: `Edit mosque ${id}` }));
    await screen.findByRole('dialog', { name: 'Edit Mosque' });
    return rendered;
  }

  it('opens filled in, with the id shown read-only', async () => {
    await openEdit(LONDON);
    expect(field(/Mosque ID/)).toHaveValue(LONDON);
    expect(field(/Mosque ID/)).toHaveAttribute('readonly');
    expect(dialog().queryByRole('button', { name: 'Generate another ID' })).not.toBeInTheDocument();
    expect(field(/Name \(English\)/)).toHaveValue('London Central Mosque');
    expect(field(/Name \(Arabic\)/)).toHaveValue('مسجد لندن المركزي');
    expect(field(/Latitude/)).toHaveValue(51.5287);
    expect(field(/Timezone/)).toHaveValue('Europe/London');
    expect(field(/City/)).toHaveValue('London');
    expect(dialog().getByRole('button', { name: 'English (en)' })).toBeInTheDocument();
    expect(dialog().getByRole('button', { name: 'Arabic (ar)' })).toBeInTheDocument();
    expect(dialog().getByRole('button', { name: 'Update Mosque' })).toBeEnabled();
  });

  it('sends only the fields that changed, and says so', async () => {
    const bodies = captureBodies('PUT', `/api/config/mosques/${EAST_LONDON}`);
    const { user } = await openEdit();
    await fill(user, field(/Name \(English\)/), 'East London Mosque & Centre');
    await user.click(dialog().getByRole('switch', { name: 'Active' }));
    await user.type(field(/Fixed Jumu'ah time/), '13:30');
    await user.click(dialog().getByRole('combobox', { name: 'Calculation Method' }));
    await user.click(screen.getByRole('option', { name: 'Moonsighting Committee' }));
    await user.click(dialog().getByRole('button', { name: 'Update Mosque' }));
    expect(await screen.findByText('Mosque updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      {
        name: 'East London Mosque & Centre',
        active: false,
        fixed_jumuah_time: '13:30',
        calculation_method: 'MoonsightingCommittee',
      },
    ]);
    expect(await row(EAST_LONDON).findByText('East London Mosque & Centre')).toBeInTheDocument();
    expect(row(EAST_LONDON).getByText('Disabled')).toBeInTheDocument();
  });

  it('clears a field with null', async () => {
    const bodies = captureBodies('PUT', `/api/config/mosques/${LONDON}`);
    const { user } = await openEdit(LONDON);
    await user.clear(field(/Name \(Arabic\)/));
    await user.click(dialog().getByRole('button', { name: 'Update Mosque' }));
    expect(await screen.findByText('Mosque updated successfully')).toBeInTheDocument();
    expect(bodies).toEqual([{ name_ar: null }]);
  });

  it('needs a name and at least one language', async () => {
    const { user } = await openEdit();
    await user.clear(field(/Name \(English\)/));
    expect(dialog().getByRole('button', { name: 'Update Mosque' })).toBeDisabled();
    await fill(user, field(/Name \(English\)/), 'East London Mosque');
    for (const chip of ['English (en)', 'Bengali (bn)']) {
      const remove = dialog().getByRole('button', { name: chip }).querySelector('.MuiChip-deleteIcon');
      if (!remove) throw new Error(`No delete icon on ${chip}`);
      await user.click(remove);
    }
    expect(dialog().getByText('At least one language is required')).toBeInTheDocument();
    expect(dialog().getByRole('button', { name: 'Update Mosque' })).toBeDisabled();
  });

  it('shows the server\'s message, or "Failed to update mosque", or "Network error occurred"', async () => {
    const { user } = await openEdit();
    const update = () => user.click(dialog().getByRole('button', { name: 'Update Mosque' }));
    failWith('put', '/api/config/mosques/:id', 400, 'Mosque ID cannot be changed');
    await update();
    expect(await screen.findByText('Mosque ID cannot be changed')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Mosque' })).toBeInTheDocument();
    failWith('put', '/api/config/mosques/:id', 500);
    await update();
    expect(await screen.findByText('Failed to update mosque')).toBeInTheDocument();
    server.use(http.put('/api/config/mosques/:id', () => HttpResponse.error()));
    await update();
    expect(await screen.findByText('Network error occurred')).toBeInTheDocument();
  });
});

describe('Delete mosque', { timeout: scaled(40_000) }, () => {
  async function askDelete(id: string) {
    const rendered = await openConfig();
    await rendered.user.click(row(id).getByRole('button', { name: `Delete mosque ${id}` }));
    await screen.findByRole('dialog', { name: 'Delete Mosque' });
    return rendered;
  }

  it('asks first, in the words of the spec', async () => {
    const { user } = await askDelete(AZHAR);
    expect(
      dialog().getByText(`Are you sure you want to delete mosque ${AZHAR}? This action cannot be undone.`),
    ).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(mockMosques()).toHaveLength(3);
  });

  it('deletes and says so', async () => {
    const { user } = await askDelete(AZHAR);
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`Mosque ${AZHAR} deleted successfully`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(AZHAR)).not.toBeInTheDocument());
    expect(mockMosques().map((mosque) => mosque.mosque_id)).toEqual([LONDON, EAST_LONDON]);
  });

  it("prefers the server's message when deleting fails", async () => {
    failWith('delete', '/api/config/mosques/:id', 404, `Mosque ${AZHAR} not found`);
    const { user } = await askDelete(AZHAR);
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`Mosque ${AZHAR} not found`)).toBeInTheDocument();
  });

  it('falls back to "Failed to delete mosque", and "Network error occurred" without an answer', async () => {
    failWith('delete', '/api/config/mosques/:id', 500);
    const { user } = await askDelete(AZHAR);
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete mosque')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    server.use(http.delete('/api/config/mosques/:id', () => HttpResponse.error()));
    await user.click(row(AZHAR).getByRole('button', { name: `Delete mosque ${AZHAR}` }));
    await screen.findByRole('dialog', { name: 'Delete Mosque' });
    await user.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Network error occurred')).toBeInTheDocument();
  });
});
