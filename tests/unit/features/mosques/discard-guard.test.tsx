import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dialog, field, openConfig } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

const mosqueDialog = () => screen.queryByRole('dialog', { name: 'Add New Mosque' });
const discardPrompt = () => screen.queryByRole('dialog', { name: 'Discard changes?' });

async function openAdd() {
  const rendered = await openConfig();
  await rendered.user.click(screen.getByRole('button', { name: 'Add Mosque' }));
  await waitFor(() => expect((field(/Mosque ID/) as HTMLInputElement).value).toMatch(/^[a-z0-9]{10}$/));
  return rendered;
}

describe('form dialogs do not lose what was typed', { timeout: scaled(40_000) }, () => {
  it('closes an untouched form on Escape without asking', async () => {
    const { user } = await openAdd();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(mosqueDialog()).not.toBeInTheDocument());
    expect(discardPrompt()).not.toBeInTheDocument();
  });

  it('asks before Escape discards a changed form; Keep editing keeps it, Discard closes it', async () => {
    const { user } = await openAdd();
    await user.type(field(/Name \(English\)/), 'Fatih Mosque');
    await user.keyboard('{Escape}');
    expect(await screen.findByRole('dialog', { name: 'Discard changes?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(discardPrompt()).not.toBeInTheDocument());
    expect(field(/Name \(English\)/)).toHaveValue('Fatih Mosque');

    await user.keyboard('{Escape}');
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(mosqueDialog()).not.toBeInTheDocument());
  });

  it('lets Escape close the language list without touching the form', async () => {
    const { user } = await openAdd();
    await user.click(field(/Languages/));
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(mosqueDialog()).toBeInTheDocument();
    expect(discardPrompt()).not.toBeInTheDocument();
    expect(dialog().getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });
});
